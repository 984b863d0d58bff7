import { z } from 'zod';

/** Week days in the order the clinic page lists them (the Israeli week starts on Sunday). */
export const weekDays = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
] as const;

export type WeekDay = (typeof weekDays)[number];

const timeOfDaySchema = z
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
