import type {
  AppointmentType,
  Caregiver,
  ClinicData,
  PatientAppointment,
  WaitlistEntry,
} from '@marpe/shared';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Link from '@mui/material/Link';
import Snackbar from '@mui/material/Snackbar';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../lib/api-client';
import { formatClinicTime } from '../../lib/clinic-time';
import { ClinicNotFound } from '../../lib/clinic/clinic-not-found';
import { parseClinicId } from '../../lib/clinic/get-clinic';
import { BackToClinic, ClinicBadge } from '../../lib/clinic/clinic-page-header';
import { useSelectedClinic } from '../../lib/clinic/use-selected-clinic';
import { ErrorView } from '../../lib/error-view';
import { lazyOnOpen } from '../../lib/lazy-on-open';
import { LoadingView } from '../../lib/loading-view';
import {
  patientAppointmentsKey,
  patientAppointmentsQueryOptions,
  usePatientAppointments,
  useUpcomingCap,
} from '../../lib/patient-appointments';
import { useCheckedSession } from '../../lib/patient-auth/use-checked-session';
import { VerificationForm } from '../../lib/patient-auth/verification-form';
import { snackbarDefaultMs } from '../../lib/snackbar';
import { DroppedCaregiverNote, OnWaitlistNote, TakenSlotNote } from './components/booking-notes';
import { CaregiverStep } from './components/caregiver-step';
import { FullyBookedList } from './components/fully-booked-list';
import { CurrentAppointment } from './components/current-appointment';
import { formatTime } from './format';
import { useFreshSlots } from './use-fresh-slots';
import { SummaryList } from './components/summary-list';
import { TypeStep } from './components/type-step';
import { canConfirm, useBookingStore } from './stores/booking-store';

const ConfirmDialog = lazyOnOpen(
  async () => (await import('./components/confirm-dialog')).ConfirmDialog,
);
const WaitlistDialog = lazyOnOpen(
  async () => (await import('./components/waitlist-dialog')).WaitlistDialog,
);
// The third step shows once a caregiver and a type are chosen: its code loads then.
const DateTimeStep = lazy(async () => ({
  default: (await import('./components/date-time-step')).DateTimeStep,
}));

const fetchErrors = new Set([
  'booking.errors.missingAvailabilityInfo',
  'booking.errors.selectDate',
  'booking.errors.fetchFailed',
]);

function Step({ number, title, children }: { number: number; title: string; children: ReactNode }) {
  return (
    <Box
      component="section"
      aria-label={title}
      sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}
    >
      <Typography component="h2" variant="h6">
        {`${number}. ${title}`}
      </Typography>
      {children}
    </Box>
  );
}

/**
 * The preset, then the automatic choices when only one caregiver or type qualifies
 * (docs/product/booking.md#choices).
 */
function applyPreset(
  data: ClinicData,
  clinicId: number,
  preset: { caregiverId: string | null; appointmentTypeId: string | null },
) {
  const state = useBookingStore.getState();
  state.setClinic(clinicId);
  if (state.isAppointmentConfirmed) state.reset();
  state.loadPreset({ clinicId, ...preset }, data.caregivers, data.appointmentTypes);
  const bookable = data.caregivers.filter((c) => c.first_available_slot !== null);
  const types = data.appointmentTypes.filter((tp) =>
    bookable.some((c) => c.default_appointment_types.includes(tp.id)),
  );
  let type = useBookingStore.getState().selectedAppointmentType;
  if (!type && types.length === 1 && types[0]) {
    state.selectAppointmentType(types[0]);
    type = types[0];
  }
  if (!useBookingStore.getState().selectedCaregiver) {
    const qualifying = bookable.filter(
      (c) => !type || c.default_appointment_types.includes(type.id),
    );
    if (qualifying.length === 1 && qualifying[0]) state.selectCaregiver(qualifying[0]);
  }
}

/** An appointment id from `?reschedule=` ("change time" on my appointments), or null. */
export function rescheduleIdOf(value: string | null): number | null {
  if (value === null || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= 2_147_483_647 ? id : null;
}

/** `?time=HH:mm` of a waitlist offer's link, or null. */
export function presetTimeOf(value: string | null): string | null {
  return value !== null && /^([01]\d|2[0-3]):[0-5]\d$/.test(value) ? value : null;
}

/** The dates (clinic time) of the patient's appointments, but for the one being moved. */
function bookedDatesOf(
  appointments: readonly PatientAppointment[] | undefined,
  rescheduleId: number | null,
  timeZone: string,
): Set<string> {
  return new Set(
    (appointments ?? [])
      // The moved appointment's own date is free to it (the API counts it as itself).
      .filter((a) => a.id !== rescheduleId)
      .map((a) => formatClinicTime(a.start_date, timeZone, 'YYYY-MM-DD')),
  );
}

/** The link to "my appointments", where an appointment is changed or cancelled. */
function MyAppointmentsLink({ clinicId }: { clinicId: number }) {
  const { t } = useTranslation();
  return (
    <Link component={RouterLink} to={`/appointments/${clinicId}`} color="inherit">
      {t('booking.myAppointments')}
    </Link>
  );
}

/** The steps of an authenticated patient (docs/product/booking.md#the-page). */
function BookingSteps({
  data,
  clinicId,
  patientId,
  rescheduleId,
}: {
  data: ClinicData;
  clinicId: number;
  patientId: number;
  /** Moving this appointment of the patient's rather than booking a new one. */
  rescheduleId: number | null;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const theme = useTheme();
  const isDesktop = useMediaQuery(theme.breakpoints.up('md'));
  const reduceMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  const [searchParams, setSearchParams] = useSearchParams();
  // Read once, before the store is read: the address's preselection, then the single choices
  // made for the patient (docs/product/booking.md#the-page). Later changes are the patient's own.
  const [preset] = useState(() => {
    const values = {
      caregiverId: searchParams.get('caregiverId'),
      appointmentTypeId: searchParams.get('appointmentTypeId'),
      date: searchParams.get('date'),
      // A waitlist offer's link names the freed slot's time too.
      time: presetTimeOf(searchParams.get('time')),
    };
    applyPreset(data, clinicId, values);
    return values;
  });
  const [presetDate, setPresetDate] = useState(preset.date);
  const [presetTime, setPresetTime] = useState(preset.time);
  /** How the offer's slot turned out: preselected, or taken meanwhile. */
  const [offer, setOffer] = useState<'selected' | 'taken' | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  /** Whom the waitlist dialog is for, and the types it offers to wait for. */
  const [waitlistFor, setWaitlistFor] = useState<{
    caregiver: Caregiver;
    types: AppointmentType[];
  } | null>(null);
  const [waitlistOpen, setWaitlistOpen] = useState(false);
  const [joined, setJoined] = useState(false);
  /** What the patient joined the waitlist for on this page: offered no second time. */
  const [waiting, setWaiting] = useState<readonly WaitlistEntry[]>([]);
  const typeStepRef = useRef<HTMLDivElement>(null);
  const [snackbar, setSnackbar] = useState<string | null>(null);

  const store = useBookingStore();
  const {
    selectedCaregiver: caregiver,
    selectedAppointmentType: type,
    selectedDate,
    selectedSlot,
  } = store;
  const timeZone = data.clinic.timezone;

  // What the rules allow, told before the last step: one appointment per date, and the clinic's
  // cap on upcoming ones (the booking's 409 answers stay for races).
  const { data: ownAppointments } = usePatientAppointments(patientId);
  const { data: cap } = useUpcomingCap(patientId);
  const moving = ownAppointments?.find((a) => a.id === rescheduleId) ?? null;
  const bookedDates = useMemo(
    () => bookedDatesOf(ownAppointments, rescheduleId, timeZone),
    [ownAppointments, rescheduleId, timeZone],
  );
  const atCap = rescheduleId === null && cap !== undefined && cap.held >= cap.max;

  const bookable = useMemo(
    () => data.caregivers.filter((c) => c.first_available_slot !== null),
    [data.caregivers],
  );
  const caregivers = useMemo(
    () => bookable.filter((c) => !type || c.default_appointment_types.includes(type.id)),
    [bookable, type],
  );
  // Left out of step 1 (no free time): offered the waitlist below it instead.
  const fullyBooked = useMemo(
    () =>
      data.caregivers.filter(
        (c) =>
          c.first_available_slot === null &&
          (!type || c.default_appointment_types.includes(type.id)),
      ),
    [data.caregivers, type],
  );
  const types = useMemo(
    () =>
      data.appointmentTypes.filter((tp) =>
        bookable.some((c) => c.default_appointment_types.includes(tp.id)),
      ),
    [data.appointmentTypes, bookable],
  );

  // The address follows the choices, without adding history entries.
  useEffect(() => {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        const values = {
          caregiverId: caregiver ? String(caregiver.id) : null,
          appointmentTypeId: type ? String(type.id) : null,
          date: caregiver && type ? (selectedDate ?? presetDate) : null,
          // Used once: a reload shows the date's times, not a stale offer.
          time: presetTime,
        };
        for (const [key, value] of Object.entries(values)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        return next;
      },
      { replace: true },
    );
  }, [caregiver, type, selectedDate, presetDate, presetTime, setSearchParams]);

  // Both chosen: the dates, then the first (or the address's) date and its times.
  const caregiverId = caregiver?.id;
  const typeId = type?.id;
  const [datesAttempt, setDatesAttempt] = useState(0);
  useEffect(() => {
    if (caregiverId === undefined || typeId === undefined) return;
    let cancelled = false;
    const state = useBookingStore.getState();
    void state.fetchAvailableDates().then(() => {
      const now = useBookingStore.getState();
      if (cancelled || now.selectedCaregiver?.id !== caregiverId) return;
      if (now.selectedAppointmentType?.id !== typeId) return;
      const offered = presetDate !== null && now.availableDates.includes(presetDate);
      // The first date the patient can book on, not one that already holds their appointment
      // (the list as it is now: it may have arrived after the render that started this).
      const booked = bookedDatesOf(
        queryClient.getQueryData(patientAppointmentsQueryOptions(patientId).queryKey),
        rescheduleId,
        timeZone,
      );
      const firstFree = now.availableDates.find((d) => !booked.has(d)) ?? now.availableDates[0];
      const date = offered ? presetDate : (firstFree ?? null);
      setPresetDate(null);
      setPresetTime(null);
      now.selectDate(date);
      if (!date) {
        if (presetTime) setOffer('taken');
        return;
      }
      void now.fetchAvailableSlots(date).then(() => {
        if (cancelled || !presetTime) return;
        const state = useBookingStore.getState();
        const slot = offered
          ? state.availableSlots.find((s) => formatTime(s.start, timeZone) === presetTime)
          : undefined;
        if (slot) state.selectSlot(slot);
        setOffer(slot ? 'selected' : 'taken');
      });
    });
    return () => {
      cancelled = true;
    };
    // The preset date is read once, when the dates arrive; a retry (datesAttempt) loads again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [caregiverId, typeId, datesAttempt]);

  const selectedDateBooked = selectedDate !== null && bookedDates.has(selectedDate);
  const allowed = canConfirm(store) && !atCap && !selectedDateBooked;
  const confirmLabel = t(rescheduleId === null ? 'booking.confirm' : 'booking.confirmReschedule');
  const waitingHere =
    caregiver !== null &&
    type !== null &&
    waiting.some((w) => w.caregiver_id === caregiver.id && w.appointment_type_id === type.id);
  const waitingCaregivers = useMemo(
    () =>
      new Set(
        waiting
          .filter((w) => !type || w.appointment_type_id === type.id)
          .map((w) => w.caregiver_id),
      ),
    [waiting, type],
  );
  const chooseCaregiver = (chosen: Caregiver | null) => {
    store.selectCaregiver(chosen);
    // On a phone the type comes next, and may sit under the sticky confirm bar: bring it up.
    if (chosen && !isDesktop && !useBookingStore.getState().selectedAppointmentType) {
      requestAnimationFrame(() =>
        typeStepRef.current?.scrollIntoView({
          block: 'nearest',
          behavior: reduceMotion ? 'auto' : 'smooth',
        }),
      );
    }
  };
  const openWaitlist = () => {
    if (!caregiver || !type) return;
    setWaitlistFor({ caregiver, types: [type] });
    setWaitlistOpen(true);
  };
  const notifyFullyBooked = (booked: Caregiver) => {
    setWaitlistFor({
      caregiver: booked,
      types: type
        ? [type]
        : data.appointmentTypes.filter((tp) => booked.default_appointment_types.includes(tp.id)),
    });
    setWaitlistOpen(true);
  };
  const fetchError = store.error && fetchErrors.has(store.error) ? store.error : null;
  // A failure with dates on screen is the times': the dates stay and the times offer a retry.
  const datesFailed = fetchError !== null && store.availableDates.length === 0;
  const slotsFailed = store.error === 'booking.errors.fetchFailed' && !datesFailed;
  const datesLoaded = !store.loading || store.availableDates.length > 0;
  // A time taken meanwhile (another patient, a phone booking in the caregiver's calendar) leaves
  // the open page within seconds, not at the next reload.
  useFreshSlots(Boolean(caregiver && type && selectedDate) && !store.isAppointmentConfirmed);

  async function confirm() {
    const ok = await useBookingStore.getState().confirmAppointment(rescheduleId);
    setDialogOpen(false);
    // Booked, moved or refused: the list, its dates and the cap may have changed.
    void queryClient.invalidateQueries({ queryKey: patientAppointmentsKey });
    if (ok) {
      void navigate(`/booking/${clinicId}/confirmation`);
    } else {
      const error = useBookingStore.getState().error;
      setSnackbar(error ?? 'booking.errors.confirmFailed');
    }
  }

  const summary = (
    <SummaryList
      caregiver={caregiver}
      appointmentType={type}
      slot={selectedSlot}
      date={caregiver && type ? selectedDate : null}
      timeZone={timeZone}
    />
  );
  const myAppointments = <MyAppointmentsLink clinicId={clinicId} />;

  return (
    <>
      {atCap && cap && (
        // On arrival, not after the last step: the booking would be refused (too_many_upcoming).
        <Alert severity="warning" role="note" sx={{ mb: 3 }}>
          {t('booking.atCap', { count: cap.held })} <MyAppointmentsLink clinicId={clinicId} />
        </Alert>
      )}
      {moving && <CurrentAppointment appointment={moving} timeZone={timeZone} />}
      <Box
        sx={{
          display: 'grid',
          gap: 4,
          gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 1fr) 320px' },
          alignItems: 'start',
        }}
      >
        <Box
          sx={{
            display: 'flex',
            flexDirection: 'column',
            gap: 4,
            // On a phone, what the keyboard or a scroll brings into view clears the sticky
            // confirm bar at the screen's foot (its height and a little air).
            '& button, & select, & input, & a, & [data-scroll-target]': {
              scrollMarginBottom: { xs: 96, md: 0 },
            },
          }}
        >
          <Step number={1} title={t('booking.steps.caregiver')}>
            <CaregiverStep
              caregivers={caregivers}
              selected={caregiver}
              onSelect={chooseCaregiver}
            />
            <FullyBookedList
              caregivers={fullyBooked}
              onNotify={notifyFullyBooked}
              waiting={waitingCaregivers}
              myAppointments={myAppointments}
            />
            <DroppedCaregiverNote
              caregiver={store.droppedCaregiver}
              typeName={type?.name ?? null}
            />
          </Step>
          <Step number={2} title={t('booking.steps.type')}>
            <Box ref={typeStepRef} data-scroll-target>
              <TypeStep types={types} selected={type} onSelect={store.selectAppointmentType} />
            </Box>
          </Step>
          {caregiver && type && (
            <Step number={3} title={t('booking.steps.dateTime')}>
              {offer && (
                <Alert severity={offer === 'taken' ? 'warning' : 'success'}>
                  {t(offer === 'taken' ? 'waitlist.offerTaken' : 'waitlist.offerSelected')}
                </Alert>
              )}
              <TakenSlotNote
                time={store.takenSlot ? formatTime(store.takenSlot.start, timeZone) : null}
              />
              {datesFailed ? (
                <Alert
                  severity="error"
                  action={
                    <Button
                      color="inherit"
                      size="small"
                      onClick={() => setDatesAttempt((n) => n + 1)}
                    >
                      {t('booking.retry')}
                    </Button>
                  }
                >
                  {t(fetchError as 'booking.errors.fetchFailed')}
                </Alert>
              ) : datesLoaded && store.availableDates.length === 0 && !store.loading ? (
                <>
                  <Alert
                    severity="info"
                    role="note"
                    action={
                      waitingHere ? undefined : (
                        <Button color="inherit" size="small" onClick={openWaitlist}>
                          {t('waitlist.notifyMe')}
                        </Button>
                      )
                    }
                  >
                    {t('booking.noDates', { type: type.name, caregiver: caregiver.name })}
                  </Alert>
                  {waitingHere && (
                    <OnWaitlistNote
                      caregiver={caregiver.name}
                      typeName={type.name}
                      myAppointments={myAppointments}
                    />
                  )}
                </>
              ) : (
                <Suspense fallback={<LoadingView />}>
                  <DateTimeStep
                    dates={store.availableDates}
                    selectedDate={selectedDate}
                    slots={store.availableSlots}
                    selectedSlot={selectedSlot}
                    loading={store.loading}
                    slotsFailed={slotsFailed}
                    onRetrySlots={() => void store.fetchAvailableSlots(selectedDate)}
                    bookedDates={bookedDates}
                    bookedDateNote={
                      <>
                        {t('booking.bookedDateNote')} <MyAppointmentsLink clinicId={clinicId} />
                      </>
                    }
                    timeZone={timeZone}
                    onSelectDate={(date) => {
                      store.selectDate(date);
                      // One per date: a date of the patient's own appointment has no times here.
                      if (bookedDates.has(date)) {
                        store.clearError();
                        store.selectSlot(null);
                      } else void store.fetchAvailableSlots(date);
                    }}
                    onSelectSlot={store.selectSlot}
                  />
                  {waitingHere ? (
                    <OnWaitlistNote
                      caregiver={caregiver.name}
                      typeName={type.name}
                      myAppointments={myAppointments}
                    />
                  ) : (
                    <Link
                      component="button"
                      type="button"
                      variant="body2"
                      onClick={openWaitlist}
                      sx={{ alignSelf: 'flex-start', mt: 1, textAlign: 'start' }}
                    >
                      {t('waitlist.noneSuit')}
                    </Link>
                  )}
                </Suspense>
              )}
            </Step>
          )}
        </Box>
        {isDesktop ? (
          <Card
            component="aside"
            variant="outlined"
            aria-labelledby="booking-summary-title"
            // Row 1 of its column, beside step 1, however long the steps grow.
            sx={{ position: 'sticky', top: 16, alignSelf: 'start', gridRow: 1, gridColumn: 2 }}
          >
            <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
              <Typography id="booking-summary-title" component="h2" variant="h6">
                {t('booking.summary')}
              </Typography>
              {summary}
              {allowed && (
                <Button variant="contained" size="large" onClick={() => setDialogOpen(true)}>
                  {confirmLabel}
                </Button>
              )}
            </CardContent>
          </Card>
        ) : (
          // Sticky at the bottom of the screen, as the desktop's summary card is at the top: the
          // confirm stays in reach below a long list of dates and times.
          <Box
            sx={{
              position: 'sticky',
              bottom: 0,
              zIndex: 1,
              py: 1.5,
              bgcolor: 'background.default',
              borderTop: 1,
              borderColor: 'divider',
            }}
          >
            <Button
              variant="contained"
              size="large"
              fullWidth
              disabled={!allowed}
              onClick={() => setDialogOpen(true)}
            >
              {confirmLabel}
            </Button>
          </Box>
        )}
      </Box>
      <ConfirmDialog
        open={dialogOpen}
        busy={store.loading && dialogOpen}
        onCancel={() => setDialogOpen(false)}
        onConfirm={() => void confirm()}
        caregiver={caregiver}
        appointmentType={type}
        slot={selectedSlot}
        timeZone={timeZone}
        current={moving}
        rescheduling={rescheduleId !== null}
      />
      {waitlistFor && (
        <WaitlistDialog
          // A new one for another caregiver or type: its choices start afresh.
          key={`${waitlistFor.caregiver.id}:${waitlistFor.types.map((tp) => tp.id).join(',')}`}
          open={waitlistOpen}
          clinicId={clinicId}
          caregiver={waitlistFor.caregiver}
          appointmentTypes={waitlistFor.types}
          timeZone={timeZone}
          onClose={() => setWaitlistOpen(false)}
          onJoined={(entry) => {
            setWaitlistOpen(false);
            setJoined(true);
            setWaiting((entries) => [...entries, entry]);
          }}
        />
      )}
      <Snackbar
        open={joined}
        autoHideDuration={snackbarDefaultMs}
        onClose={(_event, reason) => {
          if (reason !== 'clickaway') setJoined(false);
        }}
      >
        <Alert severity="success" variant="filled" sx={{ width: '100%' }}>
          {t('waitlist.joined')}
        </Alert>
      </Snackbar>
      <Snackbar
        open={snackbar !== null}
        autoHideDuration={3000}
        onClose={(_event, reason) => {
          if (reason !== 'clickaway') setSnackbar(null);
        }}
      >
        <Alert severity="error" variant="filled" sx={{ width: '100%' }}>
          {snackbar ? t(snackbar as 'booking.errors.confirmFailed') : null}
        </Alert>
      </Snackbar>
    </>
  );
}

/** The booking page, route booking/:clinicId (docs/product/booking.md). */
export function BookingPage() {
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
