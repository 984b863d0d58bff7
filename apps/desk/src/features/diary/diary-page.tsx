import AddIcon from '../../lib/icons/add';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import type { Closure, IntegrationAppointmentType, IntegrationCaregiver } from '@marpe/shared';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
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
  localParts,
  minutesOf,
  parseDate,
  stepDate,
  todayIn,
  visibleDates,
  widestWindow,
} from './clinic-time';
import { DeepLinkNotices } from './components/deep-link-notices';
import { DiaryCalendar } from './components/diary-calendar';
import { DiaryDialogs, useDiaryDialogs } from './components/diary-dialogs';
import { DiaryToolbar } from './components/diary-toolbar';
import type { DiaryEvent } from './diary-events';
import { useDiaryAddress, viewOf } from './use-diary-address';
import { useDiaryGrid } from './use-diary-grid';

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
  const view = viewOf(params);
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

function Diary({
  zone,
  caregivers,
  types,
  closures,
  appointments,
  busy,
}: {
  zone: string;
  caregivers: IntegrationCaregiver[];
  types: IntegrationAppointmentType[];
  closures: Closure[];
  appointments: ReturnType<typeof useDiaryAppointments>;
  busy: ReturnType<typeof useDiaryBusyTimes>;
}) {
  const { t, i18n } = useTranslation('diary');
  const language = i18n.language;
  const address = useDiaryAddress(zone, caregivers);
  const { today, view, date, caregiverId, bookingFor, navigate } = address;
  const dialogs = useDiaryDialogs(address.wantedAppointment, appointments);
  const { setDialog } = dialogs;

  const bookingPatient = useBookingPatient(bookingFor);
  const forPatient = bookingFor ? (bookingPatient.data ?? null) : null;
  const waitlist = useWaitlistForDay(date, caregiverId, true);
  const { range, closedDates, shown, events, background, open, hours } = useDiaryGrid({
    zone,
    view,
    date,
    caregivers,
    caregiverId,
    closures,
    appointments: appointments.data,
    busy: busy.data,
  });

  const closedInView = closures.filter((c) => range.dates.includes(c.date));
  const heading = view === 'day' ? formatDay(date, language) : formatWeek(date, language);

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
      <DeepLinkNotices
        bookingFor={bookingFor}
        patientNotFound={bookingPatient.isError}
        forPatient={forPatient}
        linkMissing={dialogs.linkMissing}
        onDismiss={address.dropParam}
      />
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

      <DiaryDialogs
        dialogs={dialogs}
        address={address}
        zone={zone}
        caregivers={caregivers}
        types={types}
        closedDates={closedDates}
        forPatient={forPatient}
        waitlist={waitlist}
      />
    </Page>
  );
}
