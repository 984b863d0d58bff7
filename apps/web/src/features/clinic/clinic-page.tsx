import type { ClinicData } from '@marpe/shared';
import { normaliseClinicName, patientPages } from '@marpe/shared/rules';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect, useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { generatePath, useLocation, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../lib/api-client';
import { ClinicNotFound } from '../../lib/clinic/clinic-not-found';
import { parseClinicId } from '../../lib/clinic/get-clinic';
import { useSelectedClinic } from '../../lib/clinic/use-selected-clinic';
import { ErrorView } from '../../lib/error-view';
import { keepFocusState } from '../../lib/keep-focus';
import { LoadingView } from '../../lib/loading-view';
import { usePageTitle } from '../../lib/page-title';
import { AppointmentTypeList } from './components/appointment-type-list';
import { BookingActions } from './components/booking-actions';
import { CaregiverList } from './components/caregiver-list';
import { ClinicHeader } from './components/clinic-header';
import { ContactCard } from './components/contact-card';
import { OpeningHoursCard } from './components/opening-hours-card';
import { useBookingConfirmation } from '../../lib/booking-confirmation';
import { lazyOnOpen } from '../../lib/lazy-on-open';

// Shown once, after a booking: its code (MUI's Snackbar and Alert) loads only then.
const BookingConfirmedSnackbar = lazyOnOpen(
  async () => (await import('./components/booking-confirmed-snackbar')).BookingConfirmedSnackbar,
);

function BookingConfirmed() {
  const open = useBookingConfirmation((state) => state.displayConfirmation);
  const clear = useBookingConfirmation((state) => state.clearConfirmation);
  return <BookingConfirmedSnackbar open={open} clear={clear} />;
}

/**
 * Rewrites the name part of the address in its canonical form; a no-op once it is. The API server
 * redirects such an address before sending the page; this covers the app's own navigations and
 * the development server.
 */
function useCanonicalClinicName() {
  const { clinicId, clinicName } = useParams();
  const { search, hash } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (clinicId === undefined || clinicName === undefined) return;
    const normalised = normaliseClinicName(clinicName);
    if (normalised === clinicName) return;
    void navigate(
      {
        pathname: generatePath(patientPages['clinic-page'].path, {
          clinicId,
          clinicName: normalised,
        }),
        search,
        hash,
      },
      { replace: true, state: keepFocusState },
    );
  }, [clinicId, clinicName, search, hash, navigate]);
}

function Section({ title, children }: { title: string; children: (id: string) => ReactNode }) {
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography id={headingId} component="h2" variant="h6" sx={{ mb: 1.5 }}>
        {title}
      </Typography>
      {children(headingId)}
    </Box>
  );
}

function ClinicDetails({ data }: { data: ClinicData }) {
  const { t } = useTranslation();
  const { clinic, caregivers, appointmentTypes } = data;
  return (
    <>
      <ClinicHeader clinic={clinic} />
      <Box
        sx={{
          display: 'grid',
          alignItems: 'start',
          columnGap: 4,
          rowGap: 3,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) 300px' },
          // Mobile: the actions come first; md+: they head the side column.
          gridTemplateAreas: {
            xs: '"actions" "main" "side"',
            md: '"main actions" "main side"',
          },
          gridTemplateRows: { md: 'auto 1fr' },
        }}
      >
        <Box sx={{ gridArea: 'actions' }}>
          <BookingActions clinic={clinic} caregivers={caregivers} />
        </Box>
        <Box sx={{ gridArea: 'main', display: 'flex', flexDirection: 'column', gap: 4 }}>
          {clinic.description.trim() && (
            // Its own line breaks are kept; dir="auto" keeps a Hebrew text's punctuation in place
            // on the English page.
            <Typography dir="auto" sx={{ whiteSpace: 'pre-line' }}>
              {clinic.description}
            </Typography>
          )}
          {appointmentTypes.length > 0 && (
            <Section title={t('clinic.appointmentTypes')}>
              {(id) => <AppointmentTypeList types={appointmentTypes} labelledBy={id} />}
            </Section>
          )}
          {caregivers.length > 0 && (
            <Section title={t('clinic.caregivers')}>
              {(id) => (
                <CaregiverList caregivers={caregivers} timeZone={clinic.timezone} labelledBy={id} />
              )}
            </Section>
          )}
        </Box>
        <Box sx={{ gridArea: 'side', display: 'flex', flexDirection: 'column', gap: 3 }}>
          <ContactCard clinic={clinic} />
          <OpeningHoursCard openingHours={clinic.opening_hours} />
        </Box>
      </Box>
    </>
  );
}

/** The clinic page (docs/product/clinic-page.md). */
export function ClinicPage() {
  const { t } = useTranslation();
  const { clinicId: clinicIdParam } = useParams();
  const clinicId = parseClinicId(clinicIdParam);
  useCanonicalClinicName();

  const { data, error, isFetching, refetch } = useSelectedClinic(clinicId);
  usePageTitle(data?.clinic.name);

  let content: ReactNode;
  if (clinicId === null || (error instanceof ApiError && error.status === 404)) {
    content = <ClinicNotFound />;
  } else if (data) {
    content = <ClinicDetails data={data} />;
  } else if (error && !isFetching) {
    content = <ErrorView message={t('clinic.loadError')} onRetry={() => void refetch()} />;
  } else {
    content = <LoadingView />;
  }

  return (
    <>
      {content}
      <BookingConfirmed />
    </>
  );
}
