import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';

/** A titled card of the side column; the title is the section's h2. */
export function SideCard({
  title,
  children,
}: {
  title: ReactNode;
  children: (headingId: string) => ReactNode;
}) {
  const headingId = useId();
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={headingId}
      sx={{ p: { xs: 2, sm: 2.5 }, borderRadius: 2 }}
    >
      <Typography id={headingId} component="h2" variant="h6" sx={{ mb: 1.5 }}>
        {title}
      </Typography>
      <Box>{children(headingId)}</Box>
    </Paper>
  );
}
