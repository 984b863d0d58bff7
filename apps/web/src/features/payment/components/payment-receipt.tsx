import type { PaymentReceipt as Receipt } from '@marpe/shared';
import { toAgorot } from '@marpe/shared/rules';
import Box from '@mui/material/Box';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Ltr } from '../../../lib/text-runs';
import { InstalmentSplit, shekels } from './payment-details';

/**
 * A confirmed payment's details on the result page: the sum, the payments, the card's last 4
 * digits, the provider's confirmation number and where the receipt goes (issue 27).
 */
export function PaymentReceipt({ receipt }: { receipt: Receipt }) {
  const { t } = useTranslation();
  const agorot = toAgorot(receipt.amount);
  if (agorot === null || agorot <= 0) return null;
  return (
    <Box
      component="dl"
      aria-label={t('payment.result.details')}
      sx={{
        m: 0,
        p: 2,
        width: '100%',
        maxWidth: 480,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        display: 'grid',
        gridTemplateColumns: 'auto 1fr',
        columnGap: 2,
        rowGap: 1,
        textAlign: 'start',
        // Plain items styled from the list: see PaymentDetails.
        '& dt': { typography: 'body1', color: 'text.secondary' },
        '& dd': { typography: 'body1', m: 0, fontWeight: 500, overflowWrap: 'anywhere' },
      }}
    >
      <Row label={t('payment.result.amount')}>
        <Ltr>{shekels(agorot)}</Ltr>
      </Row>
      <Row label={t('payment.result.payments')}>
        {receipt.payments > 1 ? (
          <InstalmentSplit amountAgorot={agorot} payments={receipt.payments} />
        ) : (
          t('payment.paymentsCount', { count: 1 })
        )}
      </Row>
      {receipt.cardLast4 && (
        <Row label={t('payment.result.card')}>
          {t('payment.result.cardEnding', { last4: receipt.cardLast4 })}
        </Row>
      )}
      {receipt.confirmationCode && (
        <Row label={t('payment.result.confirmation')}>
          <Ltr>{receipt.confirmationCode}</Ltr>
        </Row>
      )}
      {receipt.email && (
        <Row label={t('payment.result.receiptTo')}>
          <Ltr>{receipt.email}</Ltr>
        </Row>
      )}
    </Box>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}
