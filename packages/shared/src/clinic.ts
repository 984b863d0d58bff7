import { z } from 'zod';
import { weekDays } from './week-days.js';

// weekDays lives in its own zod-free module so that the web's clinic page can import it without
// bringing zod into the browser; it is still part of this module's interface.
export { weekDays, type WeekDay } from './week-days.js';

export const timeOfDaySchema = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Expected a time of day as HH:mm');

export const openingHoursRangeSchema = z
  .object({ start: timeOfDaySchema, end: timeOfDaySchema })
  // HH:mm strings compare in time order.
  .refine((range) => range.start < range.end, {
    message: 'start must be before end',
    path: ['end'],
  });

export type OpeningHoursRange = z.infer<typeof openingHoursRangeSchema>;

const dayHoursSchema = openingHoursRangeSchema.nullable();

/** A clinic's weekly opening hours; a null day means closed. */
export const openingHoursSchema = z.object({
  title: z.string().nullable(),
  days: z.object({
    sunday: dayHoursSchema,
    monday: dayHoursSchema,
    tuesday: dayHoursSchema,
    wednesday: dayHoursSchema,
    thursday: dayHoursSchema,
    friday: dayHoursSchema,
    saturday: dayHoursSchema,
  }),
});

export type OpeningHours = z.infer<typeof openingHoursSchema>;

/** One row of `GET /api/clinic`: what a clinic picker needs. */
export const clinicSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  city: z.string(),
  logo_url: z.string().nullable(),
});

export type ClinicSummary = z.infer<typeof clinicSummarySchema>;

/** A calendar date as `YYYY-MM-DD` (clinic time), checked to exist (no 2027-02-30). */
export const localDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected a date as YYYY-MM-DD')
  .refine((value) => {
    const [y, m, d] = value.split('-').map(Number) as [number, number, number];
    const date = new Date(Date.UTC(y, m - 1, d));
    return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  }, 'No such date');

/**
 * A wall-clock moment in the clinic's time zone, `YYYY-MM-DD HH:mm`
 * (docs/product/booking.md#availability).
 */
export const localDateTimeSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} ([01]\d|2[0-3]):[0-5]\d$/, 'Expected YYYY-MM-DD HH:mm')
  .refine((value) => localDateSchema.safeParse(value.slice(0, 10)).success, 'No such date');

/** A working interval within one day, clinic time. */
export const timeRangeSchema = openingHoursRangeSchema;
export type TimeRange = OpeningHoursRange;

/**
 * A caregiver's scheduling data and booking rules: the rules field of
 * docs/product/clinic-page.md#clinic-data. Effective values: the caregiver's own rules, else the
 * clinic's defaults.
 */
export const marpeRulesSchema = z.object({
  /** Slots start every this many minutes from the start of each working interval. */
  slot_step_minutes: z.number().int().min(5).max(240),
  /** No slot starts earlier than now + this. */
  min_notice_minutes: z
    .number()
    .int()
    .min(0)
    .max(60 * 24 * 30),
  /** How many calendar days may be booked, today included: 1 means today only. */
  booking_horizon_days: z.number().int().min(1).max(365),
  /** Weekly working hours, several intervals a day, sorted and not overlapping. */
  weekly_hours: z.object({
    sunday: z.array(timeRangeSchema),
    monday: z.array(timeRangeSchema),
    tuesday: z.array(timeRangeSchema),
    wednesday: z.array(timeRangeSchema),
    thursday: z.array(timeRangeSchema),
    friday: z.array(timeRangeSchema),
    saturday: z.array(timeRangeSchema),
  }),
  /** Breaks cut out of the working hours: on one week day, or every day when `day` is null. */
  breaks: z.array(
    z.object({
      day: z.enum(weekDays).nullable(),
      start: timeOfDaySchema,
      end: timeOfDaySchema,
    }),
  ),
  /** Dated exceptions that replace that date's weekly hours; no hours means a day off. */
  exceptions: z.array(z.object({ date: localDateSchema, hours: z.array(timeRangeSchema) })),
});
export type MarpeRules = z.infer<typeof marpeRulesSchema>;

export const appointmentTypeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  duration_minutes: z.number().int().positive(),
});
export type AppointmentType = z.infer<typeof appointmentTypeSchema>;

export const caregiverSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  image: z.string().nullable(),
  license_number: z.string(),
  /** Ids of the appointment types this caregiver offers. */
  default_appointment_types: z.array(z.number().int()),
  /** The earliest bookable slot for the caregiver's shortest type; null when there is none. */
  first_available_slot: z.object({ start: z.string() }).nullable(),
  google_calendar_sync_calendar_id: z.string().nullable(),
  marpe_rules: marpeRulesSchema,
});
export type Caregiver = z.infer<typeof caregiverSchema>;

export const clinicSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Plain text; line breaks are meaningful. */
  description: z.string(),
  image_url: z.string().nullable(),
  logo_url: z.string().nullable(),
  phone: z.string(),
  email: z.string().nullable(),
  address: z.object({ street: z.string(), home_number: z.string(), city: z.string() }),
  opening_hours: openingHoursSchema,
  settings: z.object({
    is_accept_new_patients: z.boolean(),
    is_auto_sms_enabled: z.boolean(),
  }),
  /** IANA zone of every time the clinic shows (`Asia/Jerusalem` unless set). */
  timezone: z.string(),
});
export type Clinic = z.infer<typeof clinicSchema>;

/** `GET /api/clinic/:id` (docs/product/clinic-page.md#clinic-data). */
export const clinicDataSchema = z.object({
  clinic: clinicSchema,
  caregivers: z.array(caregiverSchema),
  appointmentTypes: z.array(appointmentTypeSchema),
});
export type ClinicData = z.infer<typeof clinicDataSchema>;
