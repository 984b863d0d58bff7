import Box from '@mui/material/Box';

/** How tall a clinic's logo shows over a form or a payment. */
const LOGO_HEIGHT = 96;

/**
 * The clinic's logo over a form or a payment page. Its box is as tall as the logo may be before
 * the image arrives, so the page below it does not jump when it loads (layout shift, CLS); the
 * image keeps its own size within that box, scaled down only when larger.
 */
export function ClinicLogo({ src, alt }: { src: string; alt: string }) {
  return (
    <Box
      sx={{
        height: LOGO_HEIGHT,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
      }}
    >
      <Box
        component="img"
        src={src}
        alt={alt}
        sx={{ maxHeight: '100%', maxWidth: '100%', objectFit: 'contain' }}
      />
    </Box>
  );
}
