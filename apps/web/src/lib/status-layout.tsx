import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/**
 * The centred layout of a page that states an outcome rather than asks for anything: the status
 * pages, a clinic not found, a paid request and a payment's result. Above the image, what the
 * page is about (`header`: the clinic that asked); below the text, what the patient can do next.
 */
export function StatusLayout({
  header,
  image,
  heading,
  text,
  children,
}: {
  header?: ReactNode;
  /** Decorative: the heading says it all. */
  image: ReactNode;
  heading: ReactNode;
  text?: string;
  children?: ReactNode;
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
      {header}
      {image}
      <Typography component="h1" variant="h4" sx={{ textWrap: 'balance' }}>
        {heading}
      </Typography>
      {text && <Typography sx={{ maxWidth: '36em', textWrap: 'balance' }}>{text}</Typography>}
      {children}
    </Box>
  );
}
