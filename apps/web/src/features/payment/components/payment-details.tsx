import { formatAmount, splitInstalments } from '@marpe/shared/rules';
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import { ClinicText, Ltr } from '../../../lib/text-runs';

/**
 * The one money format of the patient pages: the sign first, thousands commas, agorot when there
 * are any (₪1,250.50, ₪1,250), the digits left to right in Hebrew too (docs/formats.md).
 */
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

/**
 * What the payment is for, for whom, and the sum with its split (ADR 032). The list's items are
 * plain elements styled from the list: a styled one would bring its own <style> into the list
 * when the server renders it, which a <dl> may not hold between its terms.
 */
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
        '& dt': { typography: 'body1', color: 'text.secondary' },
        '& dd': { typography: 'body1', m: 0, fontWeight: 500 },
        '& .payment-amount': { display: 'block', fontSize: '2rem', fontWeight: 700 },
      }}
    >
      <ClinicWordsRow term={t('payment.purpose')} words={purpose} />
      <ClinicWordsRow term={t('payment.patient')} words={patient} />
      <div>
        <dt>{t('payment.amount')}</dt>
        <dd>
          {/* Isolated left to right, so the sign stays before the number in Hebrew too: ₪1,250.50. */}
          <span className="payment-amount">
            <Ltr>{shekels(amountAgorot)}</Ltr>
          </span>
        </dd>
        {/* A definition of its own: in the sum's, a screen reader ran "₪1,250.50 3 payments" together. */}
        {payments > 1 && (
          <dd>
            <InstalmentSplit amountAgorot={amountAgorot} payments={payments} />
          </dd>
        )}
      </div>
    </Box>
  );
}

/** A term of the list in the clinic's own words; none when the clinic gave none (''). */
function ClinicWordsRow({ term, words }: { term: string; words: string }) {
  if (!words) return null;
  return (
    <div>
      <dt>{term}</dt>
      <dd>
        <ClinicText>{words}</ClinicText>
      </dd>
    </div>
  );
}

/**
 * The split of docs/product/payments.md#instalments in words, before the frame opens: "3 payments:
 * first ₪416.84, then 2 × ₪416.83". The split itself is the shared rule the frame's parameters are
 * built with.
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
  const then = t('payment.splitThen', { count: split.npay, later: shekels(split.laterAgorot) });
  const whole = t('payment.split', {
    payments: t('payment.paymentsCount', { count: payments }),
    first: shekels(split.firstAgorot),
    then,
  });
  // "2 × ₪416.83" on one line: broken after the "×", the count and the sum read apart.
  const at = whole.lastIndexOf(then);
  if (at < 0) return <>{whole}</>;
  return (
    <>
      {whole.slice(0, at)}
      <span style={{ whiteSpace: 'nowrap' }}>{then}</span>
      {whole.slice(at + then.length)}
    </>
  );
}
