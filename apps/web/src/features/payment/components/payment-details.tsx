import { formatAmount, splitInstalments } from '@marpe/shared/rules';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ClinicText, Ltr } from '../../../lib/text-runs';

/** ₪ and the sum, as SPEC § 9 displays amounts (the digits read left to right in Hebrew too). */
export const shekels = (agorot: number): string => `₪${formatAmount(agorot)}`;

interface PaymentDetailsProps {
  /** What the payment is for, in the clinic's words for the patient ('' when not set). */
  purpose: string;
  /** Whom it is for (`patientNameRemarks`; '' when not set). */
  patient: string;
  amountAgorot: number;
  /** The payments chosen, once the frame is open: above 1, the split is shown under the sum. */
  payments: number;
}

/** What the payment is for, for whom, and the sum with its split (issue 27). */
export function PaymentDetails({ purpose, patient, amountAgorot, payments }: PaymentDetailsProps) {
  const { t } = useTranslation();
  return (
    <Box
      component="dl"
      sx={{
        m: 0,
        p: 2,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        display: 'grid',
        gap: 1.5,
      }}
    >
      {purpose && (
        <Detail label={t('payment.purpose')}>
          <ClinicText>{purpose}</ClinicText>
        </Detail>
      )}
      {patient && (
        <Detail label={t('payment.patient')}>
          <ClinicText>{patient}</ClinicText>
        </Detail>
      )}
      <Detail label={t('payment.amount')}>
        {/* Isolated left to right, so the sign stays before the number in Hebrew too: ₪1,250.50. */}
        <Typography component="span" sx={{ display: 'block', fontSize: '2rem', fontWeight: 700 }}>
          <Ltr>{shekels(amountAgorot)}</Ltr>
        </Typography>
        {payments > 1 && (
          <Typography component="span" sx={{ display: 'block' }}>
            <InstalmentSplit amountAgorot={amountAgorot} payments={payments} />
          </Typography>
        )}
      </Detail>
    </Box>
  );
}

/**
 * SPEC § 9's split in words, before the frame opens: "3 payments: first ₪416.84, then 2 ×
 * ₪416.83". The split itself is the shared rule the frame's parameters are built with.
 */
export function InstalmentSplit({
  amountAgorot,
  payments,
}: {
  amountAgorot: number;
  payments: number;
}) {
  const { t } = useTranslation();
  const split = splitInstalments(amountAgorot, payments);
  return (
    <>
      {t('payment.split', {
        payments: t('payment.paymentsCount', { count: payments }),
        first: shekels(split.firstAgorot),
        then: t('payment.splitThen', { count: split.npay, later: shekels(split.laterAgorot) }),
      })}
    </>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Typography component="dt" color="textSecondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, fontWeight: 500 }}>
        {children}
      </Typography>
    </Box>
  );
}
