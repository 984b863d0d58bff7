import type {
  IntegrationAppointment,
  IntegrationAppointmentType,
  IntegrationCaregiver,
  IntegrationPatient,
  IntegrationWaitlistEntry,
} from '@marpe/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../../lib/notify';
import { formatWhen } from '../clinic-time';
import { appointmentEvents, patientName, type DiaryEvent } from '../diary-events';
import type { DiaryAddress } from '../use-diary-address';
import { BookingDialog, type BookingPreset } from './booking-dialog';
import { CancelDialog } from './cancel-dialog';
import { EventDialog } from './event-dialog';
import { MoveDialog, type MoveProposal } from './move-dialog';
import { WaitlistDialog } from './waitlist-dialog';

type Dialogs =
  | { kind: 'none' }
  | { kind: 'event'; event: DiaryEvent; at: number }
  | { kind: 'book'; preset: BookingPreset }
  | { kind: 'move'; appointment: IntegrationAppointment; proposal: MoveProposal | null }
  | { kind: 'cancel'; appointment: IntegrationAppointment }
  | { kind: 'waitlist' };

/**
 * The diary's one open dialog. `?appointment=<id>`: its details show once the day's appointments
 * are in, until closed or acted on (the address then forgets it).
 */
export function useDiaryDialogs(
  wantedAppointment: number | null,
  appointments: { data: IntegrationAppointment[] | undefined; isPlaceholderData: boolean },
) {
  const [dialog, setDialogState] = useState<Dialogs>({ kind: 'none' });
  // Each opening mounts its dialog afresh (its fields start from what was clicked); closing keeps
  // it mounted for its closing transition.
  const [opening, setOpening] = useState(0);
  const setDialog = useCallback((next: Dialogs) => {
    setOpening((n) => n + 1);
    setDialogState(next);
  }, []);
  const close = useCallback(() => setDialogState({ kind: 'none' }), []);

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

  return { dialog, shownDialog, opening, setDialog, close, linkMissing };
}

/** The diary's dialogs: an event's details, booking, moving, cancelling, and the day's waitlist. */
export function DiaryDialogs({
  dialogs: { dialog, shownDialog, opening, setDialog, close },
  address: { date, caregiverId, wantedAppointment, dropParam },
  zone,
  caregivers,
  types,
  closedDates,
  forPatient,
  waitlist,
}: {
  dialogs: ReturnType<typeof useDiaryDialogs>;
  address: DiaryAddress;
  zone: string;
  caregivers: IntegrationCaregiver[];
  types: IntegrationAppointmentType[];
  closedDates: ReadonlySet<string>;
  forPatient: IntegrationPatient | null;
  waitlist: { data: IntegrationWaitlistEntry[] | undefined; error: unknown };
}) {
  const { t, i18n } = useTranslation('diary');
  const language = i18n.language;
  const notify = useNotify();
  const queryClient = useQueryClient();

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['diary', 'appointments'] });
    void queryClient.invalidateQueries({ queryKey: ['diary', 'busy-times'] });
    void queryClient.invalidateQueries({ queryKey: ['diary', 'waitlist'] });
  };

  return (
    <>
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
    </>
  );
}
