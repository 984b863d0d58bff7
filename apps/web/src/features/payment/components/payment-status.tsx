import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/**
 * The centred clinic (`header`: who asked), icon, heading, text, details and action of the paid
 * state and the result view.
 */
export function PaymentStatus({
  header,
  icon,
  heading,
  text,
  children,
  action,
}: {
  header?: ReactNode;
  icon: ReactNode;
  heading: ReactNode;
  text?: string;
  children?: ReactNode;
  action?: ReactNode;
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
      {icon}
      <Typography component="h1" variant="h4" sx={{ textWrap: 'balance' }}>
        {heading}
      </Typography>
      {text && <Typography sx={{ maxWidth: '36em', textWrap: 'balance' }}>{text}</Typography>}
      {children}
      {action}
    </Box>
  );
}
