import AddIcon from '../../lib/icons/add';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import type { IntegrationAppointment } from '@marpe/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useNotify } from '../../lib/notify';
import { Page } from '../../lib/page';
import { PageLoading } from '../../lib/page-loading';
import { errorText } from '../../lib/field-errors';
import { useDiaryAppointments } from './api/appointments';
import { useDiaryBusyTimes } from './api/busy-times';
import { useBookingPatient } from './api/patient';
import {
  useDiaryCaregivers,
  useDiaryClinic,
  useDiaryClosures,
  useDiaryTypes,
} from './api/diary-setup';
import { useWaitlistForDay } from './api/waitlist';
import {
  browserToday,
  formatDay,
  formatWeek,
  formatWhen,
  isDiaryView,
  localParts,
  minutesOf,
  parseDate,
  stepDate,
  todayIn,
  visibleDates,
  widestWindow,
  windowOf,
  type DiaryView,
} from './clinic-time';
import { BookingDialog, type BookingPreset } from './components/booking-dialog';
import { CancelDialog } from './components/cancel-dialog';
import { DiaryCalendar } from './components/diary-calendar';
import { DiaryToolbar } from './components/diary-toolbar';
import { EventDialog } from './components/event-dialog';
import { MoveDialog, type MoveProposal } from './components/move-dialog';
import { WaitlistDialog } from './components/waitlist-dialog';
import {
  appointmentEvents,
  busyEvents,
  patientName,
  shownCaregivers,
  type DiaryEvent,
} from './diary-events';
import { hoursToShow, openIntervals, workingMinutes, type Interval } from './working-hours';

/**
 * `/desk/diary`: the clinic's appointments, busy times and working hours by day or week, one
 * caregiver or all side by side, in the clinic's time zone. The address holds the view, date and
 * caregiver (`?view=week&date=2027-03-24&caregiver=3`), so a reload or a shared link shows the
 * same. Both roles work here. From a patient's page: `?appointment=<id>` opens that appointment
 * (on `date`) once loaded; `?patient=<idNumber>` books for that patient (a banner says so, and a
 * booking starts with them chosen) until dismissed.
 */
export function DiaryPage() {
  const { t } = useTranslation('diary');
  const clinic = useDiaryClinic();
  const caregivers = useDiaryCaregivers();
  const types = useDiaryTypes();
  const closures = useDiaryClosures();
  // The week's appointments and busy times are asked for with the clinic's set-up, not after it:
  // their dates come from the address (or a first guess at today), and busy times from a window
  // wide enough for any zone, so the diary's first picture waits for one round of calls.
  const [params] = useSearchParams();
  const zone = clinic.data?.timezone ?? null;
  const view: DiaryView = isDiaryView(params.get('view'))
    ? (params.get('view') as DiaryView)
    : 'day';
  const date = parseDate(params.get('date')) ?? (zone ? todayIn(zone) : browserToday());
  const dates = useMemo(() => visibleDates(view, date), [view, date]);
  const appointments = useDiaryAppointments(
    dates[0] ?? date,
    dates[dates.length - 1] ?? date,
    true,
  );
  const busy = useDiaryBusyTimes(
    useMemo(() => widestWindow(dates), [dates]),
    null,
    true,
  );

  const failed = [clinic, caregivers, types, closures].find((q) => q.isError);
  if (failed) {
    return (
      <Page title={t('title')} width="full">
        <Alert
          severity="error"
          action={
            <Button color="inherit" onClick={() => void failed.refetch()}>
              {t('retry')}
            </Button>
          }
        >
          {t('loadFailed')} {errorText(t, failed.error)}
        </Alert>
      </Page>
    );
  }
  if (!clinic.data || !caregivers.data || !types.data || !closures.data) {
    return (
      <Page title={t('title')} width="full">
        <PageLoading />
      </Page>
    );
  }
  return (
    <Diary
      zone={clinic.data.timezone}
      caregivers={caregivers.data}
      types={types.data}
      closures={closures.data}
      appointments={appointments}
      busy={busy}
    />
  );
}

type Dialogs =
  | { kind: 'none' }
  | { kind: 'event'; event: DiaryEvent; at: number }
  | { kind: 'book'; preset: BookingPreset }
  | { kind: 'move'; appointment: IntegrationAppointment; proposal: MoveProposal | null }
  | { kind: 'cancel'; appointment: IntegrationAppointment }
  | { kind: 'waitlist' };

function Diary({
  zone,
  caregivers,
  types,
  closures,
  appointments,
  busy,
}: {
  zone: string;
  caregivers: NonNullable<ReturnType<typeof useDiaryCaregivers>['data']>;
  types: NonNullable<ReturnType<typeof useDiaryTypes>['data']>;
  closures: NonNullable<ReturnType<typeof useDiaryClosures>['data']>;
  appointments: ReturnType<typeof useDiaryAppointments>;
  busy: ReturnType<typeof useDiaryBusyTimes>;
}) {
  const { t, i18n } = useTranslation('diary');
  const language = i18n.language;
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const today = todayIn(zone);
  const view: DiaryView = isDiaryView(params.get('view'))
    ? (params.get('view') as DiaryView)
    : 'day';
  const date = parseDate(params.get('date')) ?? today;
  const wanted = Number(params.get('caregiver'));
  const caregiverId = caregivers.some((c) => c.id === wanted) ? wanted : null;
  const [dialog, setDialogState] = useState<Dialogs>({ kind: 'none' });
  // Each opening mounts its dialog afresh (its fields start from what was clicked); closing keeps
  // it mounted for its closing transition.
  const [opening, setOpening] = useState(0);
  const setDialog = useCallback((next: Dialogs) => {
    setOpening((n) => n + 1);
    setDialogState(next);
  }, []);
  const close = useCallback(() => setDialogState({ kind: 'none' }), []);

  const bookingFor = params.get('patient');
  const bookingPatient = useBookingPatient(bookingFor);
  const forPatient = bookingFor ? (bookingPatient.data ?? null) : null;
  const dropParam = useCallback(
    (name: string) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete(name);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const navigate = (next: { view?: DiaryView; date?: string; caregiver?: number | null }) => {
    const merged = {
      view: next.view ?? view,
      date: next.date ?? date,
      caregiver: next.caregiver === undefined ? caregiverId : next.caregiver,
    };
    setParams(
      {
        view: merged.view,
        date: merged.date,
        ...(merged.caregiver === null ? {} : { caregiver: String(merged.caregiver) }),
        // Booking for a patient lasts while the diary is paged through.
        ...(bookingFor ? { patient: bookingFor } : {}),
      },
      { replace: false },
    );
  };

  const range = useMemo(() => windowOf(view, date, zone), [view, date, zone]);
  const waitlist = useWaitlistForDay(date, caregiverId, true);

  const closedDates = useMemo(() => new Set(closures.map((c) => c.date)), [closures]);
  const shown = useMemo(
    () => shownCaregivers(caregivers, caregiverId, appointments.data ?? []),
    [caregivers, caregiverId, appointments.data],
  );
  const events = useMemo(
    () => appointmentEvents(appointments.data ?? [], caregiverId),
    [appointments.data, caregiverId],
  );
  // Busy times come for a window wider than the days shown (asked before the zone was known).
  const background = useMemo(() => {
    const from = Date.parse(range.from);
    const to = Date.parse(range.to);
    const inView = (busy.data ?? []).filter(
      (b) => Date.parse(b.end) > from && Date.parse(b.start) < to,
    );
    return busyEvents(inView, shown);
  }, [busy.data, shown, range.from, range.to]);
  const open = useMemo(() => {
    const map = new Map<number, Interval[]>();
    for (const caregiver of shown) {
      map.set(caregiver.id, openIntervals(caregiver.marpe_rules, range.dates, zone, closedDates));
    }
    return map;
  }, [shown, range.dates, zone, closedDates]);
  const hours = useMemo(() => {
    const minutes: number[] = [];
    for (const caregiver of shown) {
      for (const day of range.dates) {
        for (const [s, e] of workingMinutes(caregiver.marpe_rules, day)) minutes.push(s, e);
      }
    }
    for (const event of [...events, ...background]) {
      const start = localParts(event.start.getTime(), zone);
      const end = localParts(event.end.getTime(), zone);
      minutes.push(minutesOf(start.time));
      minutes.push(end.date > start.date ? 24 * 60 : minutesOf(end.time));
    }
    return hoursToShow(minutes);
  }, [shown, range.dates, events, background, zone]);

  const closedInView = closures.filter((c) => range.dates.includes(c.date));
  const heading = view === 'day' ? formatDay(date, language) : formatWeek(date, language);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['diary', 'appointments'] });
    void queryClient.invalidateQueries({ queryKey: ['diary', 'busy-times'] });
    void queryClient.invalidateQueries({ queryKey: ['diary', 'waitlist'] });
  };

  const newAppointment = () => {
    // The next quarter hour today, or the morning of another day shown.
    const now = localParts(Date.now(), zone);
    const quarter = Math.ceil((minutesOf(now.time) + 1) / 15) * 15;
    const time =
      date === today && quarter < 24 * 60
        ? `${String(Math.floor(quarter / 60)).padStart(2, '0')}:${String(quarter % 60).padStart(2, '0')}`
        : '09:00';
    setDialog({ kind: 'book', preset: { caregiverId, date, time, patient: forPatient } });
  };

  // Stable, so the grid (memoised: a busy week's grid is the page's slowest render) draws again
  // only when what it shows changes, not when a dialog opens or the waitlist's count arrives.
  const openEvent = useCallback(
    (event: DiaryEvent) => setDialog({ kind: 'event', event, at: Date.now() }),
    [setDialog],
  );
  const bookSlot = useCallback(
    ({ start, caregiverId: slotCaregiver }: { start: number; caregiverId: number | null }) => {
      const parts = localParts(start, zone);
      setDialog({
        kind: 'book',
        preset: { caregiverId: slotCaregiver ?? caregiverId, ...parts, patient: forPatient },
      });
    },
    [setDialog, zone, caregiverId, forPatient],
  );

  // `?appointment=<id>`: its details show once the day's appointments are in, until closed or
  // acted on (the address then forgets it).
  const wantedAppointment = Number(params.get('appointment')) || null;
  const [openedAt] = useState(() => Date.now());
  const linked = useMemo(
    () =>
      wantedAppointment !== null && appointments.data
        ? (appointmentEvents(appointments.data, null).find(
            (e) => e.kind === 'appointment' && e.appointment.id === wantedAppointment,
          ) ?? null)
        : null,
    [wantedAppointment, appointments.data],
  );
  const linkMissing =
    wantedAppointment !== null &&
    appointments.data !== undefined &&
    !appointments.isPlaceholderData &&
    linked === null;
  const shownDialog: Dialogs =
    dialog.kind === 'none' && linked ? { kind: 'event', event: linked, at: openedAt } : dialog;
  const proposeMove = useCallback(
    ({
      event,
      start,
      caregiverId: target,
    }: {
      event: DiaryEvent;
      start: number;
      caregiverId: number;
    }) => {
      if (event.kind !== 'appointment') return;
      const same = start === event.start.getTime() && target === event.appointment.caregiver.id;
      if (same) return;
      setDialog({
        kind: 'move',
        appointment: event.appointment,
        proposal: { start, caregiverId: target },
      });
    },
    [setDialog],
  );

  return (
    <Page
      title={t('title')}
      width="full"
      actions={
        <Button variant="contained" startIcon={<AddIcon />} onClick={newAppointment}>
          {t('newAppointment')}
        </Button>
      }
    >
      <DiaryToolbar
        view={view}
        heading={heading}
        caregivers={caregivers.filter((c) => c.is_active || c.id === caregiverId)}
        caregiverId={caregiverId}
        waiting={waitlist.data ? waitlist.data.length : null}
        onToday={() => navigate({ date: today })}
        onStep={(step) => navigate({ date: stepDate(view, date, step) })}
        onView={(next) => navigate({ view: next })}
        onCaregiver={(next) => navigate({ caregiver: next })}
        onWaitlist={() => setDialog({ kind: 'waitlist' })}
      />
      {bookingFor ? (
        <Alert
          severity={bookingPatient.isError ? 'warning' : 'info'}
          sx={{ mb: 2 }}
          onClose={() => dropParam('patient')}
          slotProps={{ closeButton: { title: t('deepLink.dismiss') } }}
        >
          {bookingPatient.isError
            ? t('deepLink.patientNotFound', { idNumber: bookingFor })
            : forPatient
              ? t('deepLink.bookingFor', {
                  name: `${forPatient.first_name} ${forPatient.last_name}`,
                })
              : t('deepLink.loadingPatient')}
        </Alert>
      ) : null}
      {linkMissing ? (
        <Alert severity="info" sx={{ mb: 2 }} onClose={() => dropParam('appointment')}>
          {t('deepLink.notFound')}
        </Alert>
      ) : null}
      {closedInView.length > 0 ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('closures', {
            list: closedInView
              .map((c) => `${formatDay(c.date, language)}${c.note ? ` (${c.note})` : ''}`)
              .join('; '),
          })}
        </Alert>
      ) : null}
      {appointments.isError || busy.isError ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('refreshFailed')} {errorText(t, appointments.error ?? busy.error)}
        </Alert>
      ) : null}
      {shown.length === 0 ? (
        <Alert severity="info">{t('noCaregivers')}</Alert>
      ) : !appointments.data || !busy.data ? (
        // One picture once both are in: the grid of a busy week is the page's slowest render.
        <PageLoading />
      ) : (
        // Busy while the shown days are asked for again: screen readers hear the grid may change.
        // On a wrapper, so the memoised grid does not draw again for the flag.
        <div aria-busy={appointments.isFetching || busy.isFetching}>
          <DiaryCalendar
            zone={zone}
            view={view}
            date={date}
            caregivers={shown}
            events={events}
            background={background}
            open={open}
            hours={hours}
            onOpen={openEvent}
            onSlot={bookSlot}
            onDrop={proposeMove}
          />
        </div>
      )}

      <EventDialog
        key={`EventDialog-${opening}`}
        event={shownDialog.kind === 'event' ? shownDialog.event : null}
        zone={zone}
        now={shownDialog.kind === 'event' ? shownDialog.at : 0}
        onClose={() => {
          if (wantedAppointment !== null) dropParam('appointment');
          close();
        }}
        onMove={() => {
          if (shownDialog.kind === 'event' && shownDialog.event.kind === 'appointment') {
            if (wantedAppointment !== null) dropParam('appointment');
            setDialog({
              kind: 'move',
              appointment: shownDialog.event.appointment,
              proposal: null,
            });
          }
        }}
        onCancel={() => {
          if (shownDialog.kind === 'event' && shownDialog.event.kind === 'appointment') {
            if (wantedAppointment !== null) dropParam('appointment');
            setDialog({ kind: 'cancel', appointment: shownDialog.event.appointment });
          }
        }}
      />
      <BookingDialog
        key={`BookingDialog-${opening}`}
        open={dialog.kind === 'book'}
        preset={dialog.kind === 'book' ? dialog.preset : { caregiverId, date, time: '09:00' }}
        zone={zone}
        caregivers={caregivers}
        types={types}
        onClose={close}
        onBooked={(appointment) => {
          refresh();
          // Booked for the patient the diary was opened for: done.
          if (forPatient && appointment.patient.id_number === forPatient.id_number) {
            dropParam('patient');
          }
          notify(
            t('booking.booked', {
              name: patientName(appointment),
              when: formatWhen(appointment.start_date, zone, language),
            }),
          );
        }}
      />
      <MoveDialog
        key={`MoveDialog-${opening}`}
        appointment={dialog.kind === 'move' ? dialog.appointment : null}
        proposal={dialog.kind === 'move' ? dialog.proposal : null}
        zone={zone}
        caregivers={caregivers}
        closedDates={closedDates}
        onClose={close}
        onMoved={(appointment) => {
          refresh();
          notify(
            t('move.moved', {
              name: patientName(appointment),
              when: formatWhen(appointment.start_date, zone, language),
            }),
          );
        }}
      />
      <CancelDialog
        key={`CancelDialog-${opening}`}
        appointment={dialog.kind === 'cancel' ? dialog.appointment : null}
        zone={zone}
        onClose={close}
        onCancelled={(appointment) => {
          refresh();
          notify(t('cancel.cancelled', { name: patientName(appointment) }));
        }}
      />
      <WaitlistDialog
        key={`WaitlistDialog-${opening}`}
        open={dialog.kind === 'waitlist'}
        date={date}
        zone={zone}
        caregiverName={caregivers.find((c) => c.id === caregiverId)?.name ?? null}
        entries={waitlist.data}
        error={waitlist.error}
        onClose={close}
      />
    </Page>
  );
}
