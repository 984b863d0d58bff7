import Box, { type BoxProps } from '@mui/material/Box';

/** The <main> landmark every layout renders; the skip link and route focus target it. */
export function PageMain({
  sx,
  ...props
}: Omit<BoxProps<'main'>, 'component' | 'id' | 'tabIndex'>) {
  return (
    <Box
      component="main"
      id="main"
      tabIndex={-1}
      sx={[
        { flex: 1, display: 'flex', flexDirection: 'column' },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
      {...props}
    />
  );
}
