import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import { useTranslation } from 'react-i18next';
import { useAuthStore } from '../../lib/patient-auth/auth-store';
import { useCodeDelivery } from './code-delivery';

/**
 * Under the code step: once the SMS provider says the code's message did not reach the phone,
 * the patient is told so, with the clinic's phone, instead of waiting for a code that will not
 * come. The code step's own "resend" button sends a new one.
 */
export function CodeDeliveryNotice() {
  const { t } = useTranslation();
  const twoFactorToken = useAuthStore((state) => state.twoFactorToken);
  const verified = useAuthStore((state) => state.patient !== null);
  const { data } = useCodeDelivery(verified ? null : twoFactorToken);
  if (verified || twoFactorToken === null || data?.delivery !== 'not_delivered') return null;
  const tel = data.clinicPhone.replace(/[^\d+]/g, '');
  return (
    <Alert severity="warning" role="alert">
      {t('patientAuth.codeNotDelivered')}{' '}
      <Link href={`tel:${tel}`} dir="ltr">
        {data.clinicPhone}
      </Link>
    </Alert>
  );
}
