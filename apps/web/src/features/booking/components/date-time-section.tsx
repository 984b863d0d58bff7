import type { AppointmentType, Caregiver } from '@marpe/shared';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingView } from '../../../lib/loading-view';
import { formatTime } from '../format';
import { useBookingStore } from '../stores/booking-store';
import { OnWaitlistNote, TakenSlotNote } from './booking-notes';

// The third step shows once a caregiver and a type are chosen: its code loads then.
const DateTimeStep = lazy(async () => ({
  default: (await import('./date-time-step')).DateTimeStep,
}));

const fetchErrors = new Set([
  'booking.errors.missingAvailabilityInfo',
  'booking.errors.selectDate',
  'booking.errors.fetchFailed',
]);

/**
 * Step 3 of the booking page: the chosen caregiver's dates and times for the chosen type, or why
 * there are none, and the waitlist for when none suit.
 */
export function DateTimeSection({
  caregiver,
  type,
  timeZone,
  offer,
  onRetryDates,
  bookedDates,
  bookedDateNote,
  waitingHere,
  onOpenWaitlist,
  myAppointments,
}: {
  caregiver: Caregiver;
  type: AppointmentType;
  timeZone: string;
  /** How a waitlist offer's slot turned out: preselected, or taken meanwhile. */
  offer: 'selected' | 'taken' | null;
  onRetryDates: () => void;
  /** The dates of the patient's own appointments: one per date. */
  bookedDates: ReadonlySet<string>;
  bookedDateNote: ReactNode;
  /** The patient joined the waitlist for this caregiver and type on this page. */
  waitingHere: boolean;
  onOpenWaitlist: () => void;
  myAppointments: ReactNode;
}) {
  const { t } = useTranslation();
  const store = useBookingStore();
  const { selectedDate, selectedSlot } = store;
  const fetchError = store.error && fetchErrors.has(store.error) ? store.error : null;
  // A failure with dates on screen is the times': the dates stay and the times offer a retry.
  const datesFailed = fetchError !== null && store.availableDates.length === 0;
  const slotsFailed = store.error === 'booking.errors.fetchFailed' && !datesFailed;
  const datesLoaded = !store.loading || store.availableDates.length > 0;
  const onWaitlist = (
    <OnWaitlistNote
      caregiver={caregiver.name}
      typeName={type.name}
      myAppointments={myAppointments}
    />
  );

  return (
    <>
      {offer && (
        <Alert severity={offer === 'taken' ? 'warning' : 'success'}>
          {t(offer === 'taken' ? 'waitlist.offerTaken' : 'waitlist.offerSelected')}
        </Alert>
      )}
      <TakenSlotNote time={store.takenSlot ? formatTime(store.takenSlot.start, timeZone) : null} />
      {datesFailed ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={onRetryDates}>
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
                <Button color="inherit" size="small" onClick={onOpenWaitlist}>
                  {t('waitlist.notifyMe')}
                </Button>
              )
            }
          >
            {t('booking.noDates', { type: type.name, caregiver: caregiver.name })}
          </Alert>
          {waitingHere && onWaitlist}
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
            bookedDateNote={bookedDateNote}
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
            onWaitlist
          ) : (
            <Link
              component="button"
              type="button"
              variant="body2"
              onClick={onOpenWaitlist}
              sx={{ alignSelf: 'flex-start', mt: 1, textAlign: 'start' }}
            >
              {t('waitlist.noneSuit')}
            </Link>
          )}
        </Suspense>
      )}
    </>
  );
}
