import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import { useTranslation } from 'react-i18next';
import { telHref } from '../../../lib/clinic/tel-href';
import { useSessionStore } from '../../../lib/patient-session/session-store';
import { useVerificationStore } from '../stores/verification-store';
import { useCodeDelivery } from '../api/get-code-delivery';

/**
 * Under the code step: once the SMS provider says the code's message did not reach the phone,
 * the patient is told so, with the clinic's phone, instead of waiting for a code that will not
 * come. The code step's own "resend" button sends a new one.
 */
export function CodeDeliveryNotice() {
  const { t } = useTranslation();
  const twoFactorToken = useVerificationStore((state) => state.twoFactorToken);
  const verified = useSessionStore((state) => state.patient !== null);
  const { data } = useCodeDelivery(verified ? null : twoFactorToken);
  if (verified || twoFactorToken === null || data?.delivery !== 'not_delivered') return null;
  return (
    <Alert severity="warning" role="alert">
      {t('patientAuth.codeNotDelivered')}{' '}
      <Link href={telHref(data.clinicPhone)} dir="ltr">
        {data.clinicPhone}
      </Link>
    </Alert>
  );
}
