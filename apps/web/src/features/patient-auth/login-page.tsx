import type { Patient } from '@marpe/shared';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../lib/api-client';
import { ClinicNotFound } from '../../lib/clinic/clinic-not-found';
import { BackToClinic, ClinicBadge } from '../../lib/clinic/clinic-page-header';
import { parseClinicId } from '../../lib/clinic/get-clinic';
import { useSelectedClinic } from '../../lib/clinic/use-selected-clinic';
import { ErrorView } from '../../lib/error-view';
import { LoadingView } from '../../lib/loading-view';
import { useCheckedSession } from '../../lib/patient-session/use-checked-session';
import { VerificationForm } from './components/verification-form';
import { showVerifiedNotice } from './verified-notice';
import { CodeDeliveryNotice } from './components/code-delivery-notice';

/**
 * A patient with an id goes to their appointments, otherwise to booking
 * (docs/product/login.md#login-page). One who came from a book button (`?next=booking`) goes on to
 * booking: the intent survives the login.
 */
function nextPath(patient: Patient, clinicId: number, wantsBooking: boolean): string {
  return patient.id && !wantsBooking ? `/appointments/${clinicId}` : `/booking/${clinicId}`;
}

/** The login page, route login/:clinicId (docs/product/login.md). */
export function LoginPage() {
  const { t } = useTranslation();
  const { clinicId: clinicIdParam } = useParams();
  const clinicId = parseClinicId(clinicIdParam);
  const [searchParams] = useSearchParams();
  const wantsBooking = searchParams.get('next') === 'booking';

  const { data, error, isFetching, refetch } = useSelectedClinic(clinicId);

  const { session, patient } = useCheckedSession();

  if (clinicId === null || (error instanceof ApiError && error.status === 404)) {
    return <ClinicNotFound />;
  }
  // Signed in, by a stored session or a code just accepted: on at once. The success message of a
  // code shows on the next page (verified-notice.ts); it used to hold this page
  // for 1.2 s, which on a phone made the last digit's tap the slowest of the journey.
  if (patient) return <Navigate to={nextPath(patient, clinicId, wantsBooking)} replace />;
  if (!data && error && !isFetching) {
    return <ErrorView message={t('clinic.loadError')} onRetry={() => void refetch()} />;
  }
  if (!data || session !== 'checked') return <LoadingView />;

  return (
    <Box sx={{ maxWidth: 520, mx: 'auto', display: 'flex', flexDirection: 'column', gap: 3 }}>
      <BackToClinic clinicId={clinicId} />
      <ClinicBadge clinic={data.clinic} />
      <Box>
        <Typography component="h1" variant="h4" sx={{ mb: 1 }}>
          {t('patientAuth.title')}
        </Typography>
        <Typography color="textSecondary">{t('patientAuth.intro')}</Typography>
      </Box>
      <VerificationForm clinicId={clinicId} onAuthenticated={showVerifiedNotice} />
      <CodeDeliveryNotice />
    </Box>
  );
}
