import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Snackbar from '@mui/material/Snackbar';
import Typography from '@mui/material/Typography';
import { useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../lib/api-client';
import { ClinicNotFound } from '../../lib/clinic/clinic-not-found';
import { BackToClinic, ClinicBadge } from '../../lib/clinic/clinic-page-header';
import { parseClinicId } from '../../lib/clinic/get-clinic';
import { useSelectedClinic } from '../../lib/clinic/use-selected-clinic';
import { ErrorView } from '../../lib/error-view';
import { LoadingView } from '../../lib/loading-view';
import { useCheckedSession } from '../../lib/patient-session/use-checked-session';
import { snackbarDefaultMs } from '../../lib/snackbar';
import { rescheduleIdOf } from './booking-address';
import { BookingSteps } from './components/booking-steps';
import type { JoinWaitlistDialogType } from './components/waitlist-join';

/** The form a patient not yet known verifies with: the login flow's, handed over by the app. */
export type VerificationFormType = ComponentType<{ clinicId: number; onAuthenticated: () => void }>;

/**
 * The booking page, route booking/:clinicId (docs/product/booking.md). The verification form and the
 * waitlist's join dialog come from the app (app/router.tsx), as features do not import each other.
 */
export function BookingPage({
  VerificationForm,
  JoinWaitlistDialog,
}: {
  VerificationForm: VerificationFormType;
  JoinWaitlistDialog: JoinWaitlistDialogType;
}) {
  const { t } = useTranslation();
  const { clinicId: clinicIdParam } = useParams();
  const clinicId = parseClinicId(clinicIdParam);
  const [searchParams] = useSearchParams();
  const rescheduleId = rescheduleIdOf(searchParams.get('reschedule'));

  const { data, error, isFetching, refetch } = useSelectedClinic(clinicId);

  const { session, patient } = useCheckedSession();
  // 'Successfully Authenticated' on success (docs/product/login.md#steps). Here the steps replace
  // the form at once, so the message outlives it in a snackbar.
  const [verifiedHere, setVerifiedHere] = useState(false);

  if (clinicId === null || (error instanceof ApiError && error.status === 404)) {
    return <ClinicNotFound />;
  }
  if (!data && error && !isFetching) {
    return <ErrorView message={t('clinic.loadError')} onRetry={() => void refetch()} />;
  }
  if (!data || session !== 'checked') return <LoadingView />;

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      <BackToClinic clinicId={clinicId} />
      <ClinicBadge clinic={data.clinic} />
      <Typography component="h1" variant="h4">
        {rescheduleId === null ? t('booking.title') : t('booking.rescheduleTitle')}
      </Typography>
      {rescheduleId !== null && patient && (
        <Typography color="textSecondary">{t('booking.rescheduleIntro')}</Typography>
      )}
      {patient ? (
        <BookingSteps
          data={data}
          clinicId={clinicId}
          patientId={patient.id}
          rescheduleId={rescheduleId}
          JoinWaitlistDialog={JoinWaitlistDialog}
        />
      ) : (
        <Box sx={{ maxWidth: 520, display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Typography color="textSecondary">{t('booking.verifyIntro')}</Typography>
          <VerificationForm clinicId={clinicId} onAuthenticated={() => setVerifiedHere(true)} />
        </Box>
      )}
      <Snackbar
        open={verifiedHere}
        autoHideDuration={snackbarDefaultMs}
        onClose={(_event, reason) => {
          if (reason !== 'clickaway') setVerifiedHere(false);
        }}
      >
        <Alert severity="success" variant="filled" sx={{ width: '100%' }}>
          {t('patientAuth.authenticated')}
        </Alert>
      </Snackbar>
    </Box>
  );
}
