import type { PaymentRequestData } from '@marpe/shared';
import { toAgorot } from '@marpe/shared/rules';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { CallClinicButton } from '../../../lib/clinic/call-clinic-button';
import { formatClinicTime, spokenDate, spokenDateTime } from '../../../lib/clinic-time';
import { SaidAs } from '../../../lib/said-as';
import { ClinicText, Ltr } from '../../../lib/text-runs';
import { InstalmentSplit, shekels } from './payment-details';

/**
 * What a result page says was paid or tried, as a receipt does: what for, the sum, when, and for
 * a confirmed payment the payments, the card's last 4 digits, the provider's confirmation number
 * and where the receipt goes. `attemptedAt` (an instant) dates a payment that did not go
 * through; a paid one is dated by the server's record of it.
 */
export function PaymentReceipt({
  request,
  attemptedAt,
}: {
  request: PaymentRequestData;
  attemptedAt?: string;
}) {
  const { t, i18n } = useTranslation();
  const { receipt, clinicTimeZone } = request;
  const agorot = toAgorot(receipt?.amount ?? request.amount);
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
      {request.purpose && (
        <Row label={t('payment.purpose')}>
          <ClinicText>{request.purpose}</ClinicText>
        </Row>
      )}
      <Row label={t('payment.result.amount')}>
        <Ltr>{shekels(agorot)}</Ltr>
      </Row>
      {receipt && (
        <Row label={t('payment.result.payments')}>
          {receipt.payments > 1 ? (
            <InstalmentSplit amountAgorot={agorot} payments={receipt.payments} />
          ) : (
            t('payment.paymentsCount', { count: 1 })
          )}
        </Row>
      )}
      {receipt ? (
        <Row label={t('payment.result.paidOn')}>
          <SaidAs said={spokenDateTime(receipt.paidAt, clinicTimeZone, i18n.language)}>
            <Ltr>{formatClinicTime(receipt.paidAt, clinicTimeZone, 'DD.MM.YYYY HH:mm')}</Ltr>
          </SaidAs>
        </Row>
      ) : (
        attemptedAt && (
          // The day only: the page is drawn on the server and again in the browser, which may
          // be a minute apart, never (but at midnight) a day.
          <Row label={t('payment.result.date')}>
            <SaidAs
              said={spokenDate(
                formatClinicTime(attemptedAt, clinicTimeZone, 'YYYY-MM-DD'),
                i18n.language,
              )}
            >
              <Ltr>{formatClinicTime(attemptedAt, clinicTimeZone, 'DD.MM.YYYY')}</Ltr>
            </SaidAs>
          </Row>
        )
      )}
      {receipt?.cardLast4 && (
        <Row label={t('payment.result.card')}>
          {t('payment.result.cardEnding', { last4: receipt.cardLast4 })}
        </Row>
      )}
      {receipt?.confirmationCode && (
        <Row label={t('payment.result.confirmation')}>
          <Ltr>{receipt.confirmationCode}</Ltr>
        </Row>
      )}
      {receipt?.email && (
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

/**
 * The way onward from a result: `first` (try again, when it can be), the clinic's phone when
 * `call` (a payment that did not go through is the clinic's to help with), and its page; only
 * `first` until the request is known (`first` keeps its place when it arrives).
 */
export function PaymentOnward({
  request,
  call = false,
  first,
}: {
  request: PaymentRequestData | null | undefined;
  call?: boolean;
  first?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Box
      sx={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'stretch',
        gap: 1.5,
        width: '100%',
        maxWidth: 320,
      }}
    >
      {first}
      {call && request?.clinicPhone && <CallClinicButton phone={request.clinicPhone} />}
      {request && (
        <Button
          component={RouterLink}
          to={`/clinic/${request.clinicId}`}
          variant={first || call ? 'text' : 'outlined'}
        >
          {t('status.clinicPage')}
        </Button>
      )}
    </Box>
  );
}
