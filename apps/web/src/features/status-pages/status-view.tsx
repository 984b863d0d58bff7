import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** The centred image, heading and text the status pages share. */
export function StatusView({
  image,
  heading,
  text,
}: {
  image: ReactNode;
  heading: string;
  text: string;
}) {
  return (
    <Box
      sx={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        textAlign: 'center',
        gap: 2,
        py: 4,
      }}
    >
      {image}
      <Typography component="h1" variant="h4" sx={{ textWrap: 'balance' }}>
        {heading}
      </Typography>
      <Typography sx={{ maxWidth: '36em', textWrap: 'balance' }}>{text}</Typography>
    </Box>
  );
}
