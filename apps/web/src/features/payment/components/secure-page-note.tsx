import type { CardProvider } from '@marpe/shared';
import LockOutlinedIcon from '../../../lib/icons/lock-outlined';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/**
 * Where the card is typed: on the card provider's secure page (named), never on ours; in demo mode,
 * on the sandbox standing in for it, which charges nothing (said as plainly).
 */
export function SecurePageNote({ provider }: { provider: CardProvider }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', color: 'text.secondary' }}>
      <LockOutlinedIcon fontSize="small" aria-hidden sx={{ mt: 0.25 }} />
      <Typography variant="body2">
        {provider === 'sandbox'
          ? t('payment.secureNote.sandbox')
          : t('payment.secureNote.tranzila')}
      </Typography>
    </Box>
  );
}
