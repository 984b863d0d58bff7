import { appointmentsContext, type AppointmentsServiceDeps } from './appointments-context.js';
import { bookAppointment, bookForClinic } from './book-appointment.js';
import { cancelAppointment, cancelForClinic } from './cancel-appointment.js';
import { rescheduleAppointment, rescheduleForClinic } from './move-appointment.js';
import { listUpcoming, sendDetailsSms, upcomingCap } from './patient-appointments.js';

/**
 * Booking, the patient's upcoming appointments, cancellation and the details SMS, one file a use
 * case. Whether a slot is free is decided inside the booking transaction and, in a race, by the
 * database: the caregiver's EXCLUDE constraint and the one-booking-per-date index (drizzle/0001).
 */
export function createAppointmentsService(deps: AppointmentsServiceDeps) {
  const ctx = appointmentsContext(deps);
  return {
    // The patient's (`/api/appointment`).
    book: bookAppointment(ctx),
    reschedule: rescheduleAppointment(ctx),
    cancel: cancelAppointment(ctx),
    listUpcoming: listUpcoming(ctx),
    upcomingCap: upcomingCap(ctx),
    sendSms: sendDetailsSms(ctx),
    // The clinic's (`/api/integration/appointments`).
    bookForClinic: bookForClinic(ctx),
    rescheduleForClinic: rescheduleForClinic(ctx),
    cancelForClinic: cancelForClinic(ctx),
  };
}

export type AppointmentsService = ReturnType<typeof createAppointmentsService>;
