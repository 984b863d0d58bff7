import Chip from '@mui/material/Chip';
import type { PaymentRequestStage } from '@marpe/shared';
import { useTranslation } from 'react-i18next';

const colors: Record<PaymentRequestStage, 'default' | 'success' | 'error' | 'warning'> = {
  pending: 'default',
  verifying: 'warning',
  paid: 'success',
  failed: 'error',
  cancelled: 'default',
  expired: 'default',
};

/** Where a request stands, in the desk's common words; the ended ones outlined. */
export function StageChip({ stage }: { stage: PaymentRequestStage }) {
  const { t } = useTranslation();
  const ended = stage === 'cancelled' || stage === 'expired';
  return (
    <Chip
      size="small"
      color={colors[stage]}
      variant={ended ? 'outlined' : 'filled'}
      label={t(`paymentStatus.${stage}`)}
    />
  );
}
