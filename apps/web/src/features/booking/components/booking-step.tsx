import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** One numbered step of the booking page, a section named by its heading. */
export function BookingStep({
  number,
  title,
  children,
}: {
  number: number;
  title: string;
  children: ReactNode;
}) {
  return (
    <Box
      component="section"
      aria-label={title}
      sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}
    >
      <Typography component="h2" variant="h6">
        {`${number}. ${title}`}
      </Typography>
      {children}
    </Box>
  );
}
