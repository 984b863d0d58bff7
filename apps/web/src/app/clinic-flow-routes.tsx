// The clinic flow's pages that show another feature's piece, composed here: features do not import
// each other (ADR 045). Loaded with those pages, in the clinic flow's chunk (vite.config.ts), so
// the entry chunk carries none of it.
import { AppointmentsPage } from '../features/appointments/appointments-page';
import { BookingPage } from '../features/booking/booking-page';
import { VerificationForm } from '../features/patient-auth/components/verification-form';
import { WaitlistSection } from '../features/waitlist/components/waitlist-section';
import { lazyOnOpen } from '../lib/lazy-on-open';

// Its code is imported once the booking page is idle, as the page's own dialogs are.
const JoinWaitlistDialog = lazyOnOpen(
  async () =>
    (await import('../features/waitlist/components/join-waitlist-dialog')).JoinWaitlistDialog,
);

/** The booking page, with the login flow's form for a patient not yet known, and the waitlist's. */
export function BookingRoute() {
  return (
    <BookingPage VerificationForm={VerificationForm} JoinWaitlistDialog={JoinWaitlistDialog} />
  );
}

/** My appointments, with the waitlist's section (the entries, leaving them). */
export function AppointmentsRoute() {
  return <AppointmentsPage WaitlistSection={WaitlistSection} />;
}
