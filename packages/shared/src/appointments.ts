import { z } from 'zod';
import { instantSchema as boundedInstantSchema } from './instant.js';

const idSchema = (what: string) =>
  z
    .number({ error: `Expected ${what}` })
    .int(`Expected ${what}`)
    .positive(`Expected ${what}`)
    .max(2_147_483_647, `Expected ${what}`);

/**
 * An instant as ISO 8601 with an offset or Z. available-slots answers with the clinic's offset
 * (`2027-03-26T09:00:00+03:00`); any spelling of the same instant is the same slot.
 */
const instantSchema = boundedInstantSchema('2027-03-26T09:00:00+03:00');

/**
 * `POST /api/appointment` and `POST /api/appointment/send-sms`: an interval exactly as one slot
 * of `GET /api/appointment/available-slots` for the type's duration.
 */
export const bookAppointmentBodySchema = z
  .object({
    clinicId: idSchema('a clinic id'),
    caregiverId: idSchema('a caregiver id'),
    appointmentTypeId: idSchema('an appointment type id'),
    startDate: instantSchema,
    endDate: instantSchema,
  })
  .refine((body) => Date.parse(body.endDate) > Date.parse(body.startDate), {
    message: 'endDate must be after startDate',
    path: ['endDate'],
  });
export type BookAppointmentBody = z.infer<typeof bookAppointmentBodySchema>;

/** `POST /api/appointment/send-sms` has the booking's body shape. */
export const sendAppointmentSmsBodySchema = bookAppointmentBodySchema;
export type SendAppointmentSmsBody = BookAppointmentBody;

/** The answer of `POST /api/appointment` (201): the booked appointment. */
export const bookedAppointmentSchema = z.object({
  id: z.number().int(),
  clinic_id: z.number().int(),
  caregiver_id: z.number().int(),
  appointment_type_id: z.number().int(),
  /** ISO 8601 with the clinic's offset, like the slots. */
  start_date: z.string(),
  end_date: z.string(),
  /**
   * true when the clinic sends the details SMS itself (settings.is_auto_sms_enabled) and it was
   * queued with the booking: the confirmation page must not offer to send it again.
   */
  sms_sent: z.boolean(),
});
export type BookedAppointment = z.infer<typeof bookedAppointmentSchema>;

/** One row of `GET /api/appointment/patient-appointments` (docs/product/appointments.md#calls). */
export const patientAppointmentSchema = z.object({
  id: z.number().int(),
  /** What "change time" preselects in the booking steps. */
  caregiver_id: z.number().int(),
  appointment_type_id: z.number().int(),
  caregiver_name: z.string(),
  type_name: z.string(),
  /** ISO 8601 with the clinic's offset, like the slots. */
  start_date: z.string(),
  end_date: z.string(),
  /** The patient may cancel it here (the clinic's cancellation notice has not begun). */
  is_marpe_cancellable: z.boolean(),
});
export type PatientAppointment = z.infer<typeof patientAppointmentSchema>;

/** The patient's upcoming booked appointments, by start. */
export const patientAppointmentsSchema = z.array(patientAppointmentSchema);

/**
 * `GET /api/appointment/upcoming-cap`: the clinic's cap on a patient's upcoming appointments and
 * how many of them count against it now — the patient's own or, when more, those of every ID
 * number on the patient's phone (the cap holds per phone too). The booking page tells a patient
 * at the cap before the steps rather than after the final confirm.
 */
export const upcomingCapSchema = z.object({
  max: z.number().int(),
  held: z.number().int(),
});
export type UpcomingCap = z.infer<typeof upcomingCapSchema>;

/** `PUT /api/appointment/patient-appointments`: cancels one of the patient's appointments. */
export const cancelAppointmentBodySchema = z.object({
  appointmentId: idSchema('an appointment id'),
});
export type CancelAppointmentBody = z.infer<typeof cancelAppointmentBodySchema>;

/**
 * `POST /api/appointment/patient-appointments/:id/reschedule`: the new slot, in the booking's body
 * shape (the caregiver and type may change too). Answers the moved appointment like a booking.
 */
export const rescheduleAppointmentParamsSchema = z.object({
  id: z.coerce.number().pipe(idSchema('an appointment id')),
});
export const rescheduleAppointmentBodySchema = bookAppointmentBodySchema;
export type RescheduleAppointmentBody = BookAppointmentBody;

/** The answer of send-sms and of a cancellation. */
export const appointmentActionResponseSchema = z.object({ status: z.literal('ok') });
export type AppointmentActionResponse = z.infer<typeof appointmentActionResponseSchema>;

/** Details SMS one appointment may cause in all, the automatic one included (429 after). */
export const APPOINTMENT_SMS_LIMIT = 3;
