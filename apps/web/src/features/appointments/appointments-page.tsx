import type { Clinic, Patient } from '@marpe/shared';
import AddIcon from '../../lib/icons/add';
import LogoutIcon from '../../lib/icons/logout';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useId, useRef, useState, type ComponentType, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../lib/api-client';
import { ClinicNotFound } from '../../lib/clinic/clinic-not-found';
import { parseClinicId } from '../../lib/clinic/get-clinic';
import { BackToClinic } from '../../lib/clinic/clinic-page-header';
import { useSelectedClinic } from '../../lib/clinic/use-selected-clinic';
import { ErrorView } from '../../lib/error-view';
import { lazyOnOpen } from '../../lib/lazy-on-open';
import { LoadingView } from '../../lib/loading-view';
import { useSessionStore } from '../../lib/patient-session/session-store';
import { useCheckedSession } from '../../lib/patient-session/use-checked-session';
import { OutcomeSnackbar } from '../../lib/outcome-snackbar';
import { useCancelAppointment } from './api/cancel-appointment';
import { usePatientAppointments, type PatientAppointment } from '../../lib/patient-appointments';
import { AppointmentCard } from './components/appointment-card';
import { ClinicInfoToggletip } from './components/clinic-info-toggletip';

const CancelDialog = lazyOnOpen(
  async () => (await import('./components/cancel-dialog')).CancelDialog,
);

type Outcome = 'cancelled' | 'cancelError';

interface AppointmentListProps {
  patient: Patient;
  clinic: Clinic;
  onCancel: (appointment: PatientAppointment) => void;
  headingRef: Ref<HTMLHeadingElement>;
}

function AppointmentList({ patient, clinic, onCancel, headingRef }: AppointmentListProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const { data, error, isFetching, refetch } = usePatientAppointments(patient.id);

  let content;
  if (data && data.length === 0) {
    // Not a dead end: the way on is to book one.
    content = (
      <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 1.5 }}>
        <Typography color="textSecondary">{t('appointments.empty')}</Typography>
        <Button
          component={RouterLink}
          to={`/booking/${clinic.id}`}
          variant="outlined"
          startIcon={<AddIcon />}
        >
          {t('appointments.book')}
        </Button>
      </Box>
    );
  } else if (data) {
    content = (
      <Box
        component="ul"
        role="list"
        aria-labelledby={headingId}
        sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 2 }}
      >
        {data.map((appointment) => (
          <li key={appointment.id}>
            <AppointmentCard
              appointment={appointment}
              clinicId={clinic.id}
              timeZone={clinic.timezone}
              onCancel={onCancel}
            />
          </li>
        ))}
      </Box>
    );
  } else if (error && !isFetching) {
    content = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" onClick={() => void refetch()}>
            {t('common.reload')}
          </Button>
        }
      >
        {t('appointments.loadError')}
      </Alert>
    );
  } else {
    content = <LoadingView />;
  }

  return (
    <Box component="section" aria-labelledby={headingId}>
      {/* Focus lands here after a cancellation, whose card is gone. */}
      <Typography
        id={headingId}
        ref={headingRef}
        tabIndex={-1}
        component="h2"
        variant="h6"
        sx={{ mb: 1.5, '&:focus': { outline: 'none' } }}
      >
        {t('appointments.upcoming')}
      </Typography>
      {content}
    </Box>
  );
}

/** The patient's waitlist entries (the waitlist feature's section), handed over by the app. */
export type WaitlistSectionType = ComponentType<{ patientId: number }>;

/**
 * My appointments, route appointments/:clinicId (docs/product/appointments.md). The waitlist's
 * section comes from the app (app/router.tsx), as features do not import each other.
 */
export function AppointmentsPage({ WaitlistSection }: { WaitlistSection: WaitlistSectionType }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { clinicId: clinicIdParam } = useParams();
  const clinicId = parseClinicId(clinicIdParam);

  const { data, error, isFetching, refetch } = useSelectedClinic(clinicId);

  const { session, patient } = useCheckedSession();
  const logout = useSessionStore((state) => state.logout);
  // Logging out empties the patient; the page is on its way to the clinic, not to the login.
  const [leaving, setLeaving] = useState(false);

  const [dialogOpen, setDialogOpen] = useState(false);
  const [target, setTarget] = useState<PatientAppointment | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [snackbarOpen, setSnackbarOpen] = useState(false);
  const focusListAfterClose = useRef(false);
  const listHeadingRef = useRef<HTMLHeadingElement>(null);
  const cancel = useCancelAppointment();

  if (clinicId === null || (error instanceof ApiError && error.status === 404)) {
    return <ClinicNotFound />;
  }
  if (session === 'checked' && !patient && !leaving) {
    return <Navigate to={`/login/${clinicId}`} replace />;
  }
  if (!data && error && !isFetching) {
    return <ErrorView message={t('clinic.loadError')} onRetry={() => void refetch()} />;
  }
  if (!data || !patient) return <LoadingView />;

  const { clinic } = data;

  const logOut = async () => {
    setLeaving(true);
    await logout();
    await navigate(`/clinic/${clinicId}`);
  };

  const confirmCancel = (appointment: PatientAppointment) => {
    cancel.mutate(appointment.id, {
      onSuccess: () => {
        focusListAfterClose.current = true;
        setOutcome('cancelled');
      },
      onError: () => setOutcome('cancelError'),
      onSettled: () => {
        setDialogOpen(false);
        setSnackbarOpen(true);
      },
    });
  };

  return (
    <Box sx={{ maxWidth: 720, mx: 'auto', display: 'flex', flexDirection: 'column', gap: 3 }}>
      <BackToClinic clinicId={clinicId} />
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          flexWrap: 'wrap',
          gap: 1,
        }}
      >
        <Typography sx={{ fontSize: '1.125rem' }}>
          {t('appointments.greeting', { name: patient.first_name })}
        </Typography>
        <Button variant="text" startIcon={<LogoutIcon />} onClick={() => void logOut()}>
          {t('appointments.logout')}
        </Button>
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
        <Typography component="h1" variant="h4">
          <bdi>{clinic.name}</bdi>
        </Typography>
        <ClinicInfoToggletip clinic={clinic} />
      </Box>
      <Button
        component={RouterLink}
        to={`/booking/${clinicId}`}
        variant="contained"
        startIcon={<AddIcon />}
        sx={{ alignSelf: 'flex-start' }}
      >
        {t('appointments.book')}
      </Button>
      <AppointmentList
        patient={patient}
        clinic={clinic}
        headingRef={listHeadingRef}
        onCancel={(appointment) => {
          setTarget(appointment);
          setDialogOpen(true);
        }}
      />
      <WaitlistSection patientId={patient.id} />
      <CancelDialog
        open={dialogOpen}
        appointment={target}
        timeZone={clinic.timezone}
        pending={cancel.isPending}
        onReturn={() => setDialogOpen(false)}
        onConfirm={confirmCancel}
        onExited={() => {
          setTarget(null);
          if (focusListAfterClose.current) {
            focusListAfterClose.current = false;
            listHeadingRef.current?.focus();
          }
        }}
      />
      <OutcomeSnackbar
        open={snackbarOpen}
        message={outcome ? t(`appointments.${outcome}`) : ''}
        failed={outcome === 'cancelError'}
        onClose={() => setSnackbarOpen(false)}
      />
    </Box>
  );
}
