import type { Patient } from '@marpe/shared';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../lib/api-client';
import { ClinicNotFound } from '../../lib/clinic/clinic-not-found';
import { BackToClinic, ClinicBadge } from '../../lib/clinic/clinic-page-header';
import { parseClinicId } from '../../lib/clinic/get-clinic';
import { useSelectedClinic } from '../../lib/clinic/use-selected-clinic';
import { ErrorView } from '../../lib/error-view';
import { LoadingView } from '../../lib/loading-view';
import { useAuthStore } from '../../lib/patient-auth/auth-store';
import { useCheckedSession } from '../../lib/patient-auth/use-checked-session';
import { VerificationForm } from '../../lib/patient-auth/verification-form';
import { CodeDeliveryNotice } from './code-delivery-notice';

/** How long "Successfully Authenticated" stays on screen before the next page. */
const successPauseMs = 1200;

/**
 * SPEC § 2: a patient with an id goes to their appointments, otherwise to booking. One who came
 * from a book button (`?next=booking`) goes on to booking: the intent survives the login.
 */
function nextPath(patient: Patient, clinicId: number, wantsBooking: boolean): string {
  return patient.id && !wantsBooking ? `/appointments/${clinicId}` : `/booking/${clinicId}`;
}

/** SPEC § 2 "Login page" (route login/:clinicId). */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { clinicId: clinicIdParam } = useParams();
  const clinicId = parseClinicId(clinicIdParam);
  const [searchParams] = useSearchParams();
  const wantsBooking = searchParams.get('next') === 'booking';

  const { data, error, isFetching, refetch } = useSelectedClinic(clinicId);

  const { session, patient } = useCheckedSession();
  const authenticatedBy = useAuthStore((state) => state.authenticatedBy);

  // Verified here: the success message shows a moment before the next page replaces this one.
  const verifiedHere = patient !== null && authenticatedBy === 'code';
  useEffect(() => {
    if (!verifiedHere || !patient || clinicId === null) return;
    const timer = window.setTimeout(
      () => void navigate(nextPath(patient, clinicId, wantsBooking), { replace: true }),
      successPauseMs,
    );
    return () => window.clearTimeout(timer);
  }, [verifiedHere, patient, clinicId, wantsBooking, navigate]);

  if (clinicId === null || (error instanceof ApiError && error.status === 404)) {
    return <ClinicNotFound />;
  }
  if (patient && !verifiedHere)
    return <Navigate to={nextPath(patient, clinicId, wantsBooking)} replace />;
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
      <VerificationForm clinicId={clinicId} />
      <CodeDeliveryNotice />
    </Box>
  );
}
