import type { Caregiver } from '@marpe/shared';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Snackbar from '@mui/material/Snackbar';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { lazyOnOpen } from '../../../lib/lazy-on-open';
import { patientAppointmentsKey } from '../../../lib/patient-appointments';
import { useBookingChoices, type BookingFor } from '../hooks/use-booking-choices';
import { useBookingLimits } from '../hooks/use-booking-limits';
import { useFreshSlots } from '../hooks/use-fresh-slots';
import { canConfirm, useBookingStore } from '../stores/booking-store';
import { DroppedCaregiverNote } from './booking-notes';
import { BookingStep } from './booking-step';
import { CaregiverStep } from './caregiver-step';
import { ConfirmBar } from './confirm-bar';
import { CurrentAppointment } from './current-appointment';
import { DateTimeSection } from './date-time-section';
import { FullyBookedList } from './fully-booked-list';
import { MyAppointmentsLink } from './my-appointments-link';
import { SummaryList } from './summary-list';
import { TypeStep } from './type-step';
import { useWaitlistJoin, WaitlistJoin, type JoinWaitlistDialogType } from './waitlist-join';

const ConfirmDialog = lazyOnOpen(async () => (await import('./confirm-dialog')).ConfirmDialog);

/** The steps of an authenticated patient (docs/product/booking.md#the-page). */
export function BookingSteps(props: BookingFor & { JoinWaitlistDialog: JoinWaitlistDialogType }) {
  const { data, clinicId, patientId, rescheduleId, JoinWaitlistDialog } = props;
  // First: the address's preselection is applied before the store is read below.
  const { offer, retryDates } = useBookingChoices(props);
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const theme = useTheme();
  const isDesktop = useMediaQuery(theme.breakpoints.up('md'));
  const reduceMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  const [dialogOpen, setDialogOpen] = useState(false);
  const waitlist = useWaitlistJoin();
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
  const { cap, moving, bookedDates, atCap } = useBookingLimits(patientId, rescheduleId, timeZone);

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

  const selectedDateBooked = selectedDate !== null && bookedDates.has(selectedDate);
  const allowed = canConfirm(store) && !atCap && !selectedDateBooked;
  const { waiting } = waitlist;
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
  const notifyFullyBooked = (booked: Caregiver) =>
    waitlist.offer(
      booked,
      type
        ? [type]
        : data.appointmentTypes.filter((tp) => booked.default_appointment_types.includes(tp.id)),
    );
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
          <BookingStep number={1} title={t('booking.steps.caregiver')}>
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
          </BookingStep>
          <BookingStep number={2} title={t('booking.steps.type')}>
            <Box ref={typeStepRef} data-scroll-target>
              <TypeStep types={types} selected={type} onSelect={store.selectAppointmentType} />
            </Box>
          </BookingStep>
          {caregiver && type && (
            <BookingStep number={3} title={t('booking.steps.dateTime')}>
              <DateTimeSection
                caregiver={caregiver}
                type={type}
                timeZone={timeZone}
                offer={offer}
                onRetryDates={retryDates}
                bookedDates={bookedDates}
                bookedDateNote={
                  <>
                    {t('booking.bookedDateNote')} <MyAppointmentsLink clinicId={clinicId} />
                  </>
                }
                waitingHere={waitingHere}
                onOpenWaitlist={() => waitlist.offer(caregiver, [type])}
                myAppointments={myAppointments}
              />
            </BookingStep>
          )}
        </Box>
        <ConfirmBar
          isDesktop={isDesktop}
          summary={
            <SummaryList
              caregiver={caregiver}
              appointmentType={type}
              slot={selectedSlot}
              date={caregiver && type ? selectedDate : null}
              timeZone={timeZone}
            />
          }
          allowed={allowed}
          label={t(rescheduleId === null ? 'booking.confirm' : 'booking.confirmReschedule')}
          onConfirm={() => setDialogOpen(true)}
        />
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
      <WaitlistJoin
        join={waitlist}
        clinicId={clinicId}
        timeZone={timeZone}
        JoinWaitlistDialog={JoinWaitlistDialog}
      />
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
