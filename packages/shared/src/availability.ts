import { z } from 'zod';
import { localDateTimeSchema } from './clinic.js';

const idSchema = z.coerce
  .number({ error: 'Expected a whole number' })
  .int('Expected a whole number')
  .positive('Expected a positive whole number');

/** Query of `GET /api/appointment/available-dates`. */
export const availableDatesQuerySchema = z.object({
  clinicId: idSchema,
  caregiverId: idSchema,
  /** Minutes. */
  duration: idSchema.max(480, 'At most 480 minutes'),
});
export type AvailableDatesQuery = z.infer<typeof availableDatesQuerySchema>;

/**
 * Query of `GET /api/appointment/available-slots`: a range in clinic time, `YYYY-MM-DD HH:mm`.
 * docs/product/booking.md#availability: with no dates the call means today; a missing startDate is
 * today's 00:00, a missing endDate the end (23:59) of the startDate's day.
 */
export const availableSlotsQuerySchema = availableDatesQuerySchema.extend({
  startDate: localDateTimeSchema.optional(),
  endDate: localDateTimeSchema.optional(),
});
export type AvailableSlotsQuery = z.infer<typeof availableSlotsQuerySchema>;

/** A bookable interval; ISO 8601 with the clinic's UTC offset, e.g. `2027-03-26T09:00:00+03:00`. */
export const slotSchema = z.object({ start: z.string(), end: z.string() });
export type Slot = z.infer<typeof slotSchema>;

export const availableDatesSchema = z.array(z.string());
export const availableSlotsSchema = z.array(slotSchema);
