import type { Clinic, Patient } from '@marpe/shared';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../lib/api-client';
import { ClinicNotFound } from '../../lib/clinic/clinic-not-found';
import { useClinicStore } from '../../lib/clinic/clinic-store';
import { parseClinicId, useClinic } from '../../lib/clinic/get-clinic';
import { ErrorView } from '../../lib/error-view';
import { LoadingView } from '../../lib/loading-view';
import { useAuthStore } from '../../lib/patient-auth/auth-store';
import { VerificationForm } from '../../lib/patient-auth/verification-form';

/** How long "Successfully Authenticated" stays on screen before the next page. */
const successPauseMs = 1200;

/** SPEC § 2: a patient with an id goes to their appointments, otherwise to booking. */
function nextPath(patient: Patient, clinicId: number): string {
  return patient.id ? `/appointments/${clinicId}` : `/booking/${clinicId}`;
}

function BackToClinic({ clinicId }: { clinicId: number }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const BackIcon = theme.direction === 'rtl' ? ArrowForwardIcon : ArrowBackIcon;
  return (
    <Button
      component={RouterLink}
      to={`/clinic/${clinicId}`}
      startIcon={<BackIcon />}
      sx={{ alignSelf: 'flex-start', marginInlineStart: -1 }}
    >
      {t('patientAuth.backToClinic')}
    </Button>
  );
}

function ClinicBadge({ clinic }: { clinic: Clinic }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
      {/* The clinic's name follows, so the logo is decorative. */}
      <Avatar
        src={clinic.logo_url ?? undefined}
        alt=""
        sx={{
          width: 64,
          height: 64,
          bgcolor: 'background.paper',
          color: 'text.primary',
          border: 1,
          borderColor: 'divider',
          '& img': { objectFit: 'contain' },
        }}
      >
        {clinic.logo_url ? undefined : <span aria-hidden="true">{clinic.name.slice(0, 1)}</span>}
      </Avatar>
      <Typography sx={{ fontWeight: 500, fontSize: '1.125rem' }}>
        <bdi>{clinic.name}</bdi>
      </Typography>
    </Box>
  );
}

/** SPEC § 2 "Login page" (route login/:clinicId). */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { clinicId: clinicIdParam } = useParams();
  const clinicId = parseClinicId(clinicIdParam);

  const { data, error, isFetching, refetch } = useClinic(clinicId);
  const setClinicData = useClinicStore((state) => state.setClinicData);
  useEffect(() => {
    if (data) setClinicData(data);
  }, [data, setClinicData]);

  const session = useAuthStore((state) => state.session);
  const patient = useAuthStore((state) => state.patient);
  const authenticatedBy = useAuthStore((state) => state.authenticatedBy);
  const fetchPatient = useAuthStore((state) => state.fetchPatient);
  useEffect(() => {
    void fetchPatient();
  }, [fetchPatient]);

  // Verified here: the success message shows a moment before the next page replaces this one.
  const verifiedHere = patient !== null && authenticatedBy === 'code';
  useEffect(() => {
    if (!verifiedHere || !patient || clinicId === null) return;
    const timer = window.setTimeout(
      () => void navigate(nextPath(patient, clinicId), { replace: true }),
      successPauseMs,
    );
    return () => window.clearTimeout(timer);
  }, [verifiedHere, patient, clinicId, navigate]);

  if (clinicId === null || (error instanceof ApiError && error.status === 404)) {
    return <ClinicNotFound />;
  }
  if (patient && !verifiedHere) return <Navigate to={nextPath(patient, clinicId)} replace />;
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
        <Typography color="text.secondary">{t('patientAuth.intro')}</Typography>
      </Box>
      <VerificationForm clinicId={clinicId} />
    </Box>
  );
}
