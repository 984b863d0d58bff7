import { z } from 'zod';
import { timeOfDaySchema } from '../clinic.js';
import { messagingChannelSchema } from './clinic.js';

// Appointment reminders (docs/booking.md, "Reminders"; docs/integration.md, "Reminders"): what a
// clinic sets through the integration API and what it can read back of the reminders sent.

/** A reminder goes at most this long before the start: 7 days. */
export const MAX_REMINDER_LEAD_MINUTES = 7 * 24 * 60;
/** A reminder goes at least this long before the start. */
export const MIN_REMINDER_LEAD_MINUTES = 30;
/** Lead times a clinic may set at once. */
export const MAX_REMINDER_LEADS = 3;

/** What a clinic that never set its reminders gets (reminders off until it turns them on). */
export const defaultReminderSettings: Readonly<ReminderSettings> = {
  enabled: false,
  lead_minutes: [24 * 60, 2 * 60],
  channel: 'sms',
  quiet_hours: { start: '21:00', end: '08:00' },
  observe_shabbat_and_holidays: false,
};

const leadMinutesSchema = z
  .array(
    z
      .number({ error: 'Expected a whole number of minutes' })
      .int('Expected a whole number of minutes')
      .min(MIN_REMINDER_LEAD_MINUTES, `At least ${MIN_REMINDER_LEAD_MINUTES} minutes`)
      .max(MAX_REMINDER_LEAD_MINUTES, `At most ${MAX_REMINDER_LEAD_MINUTES} minutes (7 days)`),
  )
  .min(1, 'At least one lead time')
  .max(MAX_REMINDER_LEADS, `At most ${MAX_REMINDER_LEADS} lead times`)
  .refine((leads) => new Set(leads).size === leads.length, 'A lead time is listed twice')
  .describe(
    'How long before the start each reminder goes, in minutes (1440 = the day before at the same clock time)',
  );

/** `GET` and `PUT /api/integration/reminders/settings`. */
export const reminderSettingsSchema = z.strictObject({
  enabled: z.boolean(),
  lead_minutes: leadMinutesSchema,
  /**
   * 'whatsapp' sends by WhatsApp while the clinic's WhatsApp is connected, and by SMS otherwise;
   * 'sms' always by SMS.
   */
  channel: messagingChannelSchema,
  /**
   * No reminder goes between start and end, clinic time (across midnight when end is earlier);
   * one that would is sent earlier, just before they begin. Equal times: no quiet hours.
   */
  quiet_hours: z.strictObject({ start: timeOfDaySchema, end: timeOfDaySchema }),
  /**
   * No reminder from candle lighting to havdalah on Shabbat and Yom Tov (Israel's calendar,
   * Jerusalem's times); one that would is sent earlier, before candle lighting.
   */
  observe_shabbat_and_holidays: z.boolean(),
});
export type ReminderSettings = z.infer<typeof reminderSettingsSchema>;

export const reminderStatuses = ['scheduled', 'sent', 'withdrawn', 'missed', 'refused'] as const;
export type ReminderStatus = (typeof reminderStatuses)[number];

/** One reminder of an appointment: `GET /api/integration/appointments/:id/reminders`. */
export const integrationReminderSchema = z.object({
  id: z.number().int(),
  lead_minutes: z.number().int(),
  /**
   * scheduled: waiting for due_at; sent; withdrawn: the appointment was cancelled or moved, or
   * reminders were turned off; missed: the server could not send it before the start;
   * refused: not sent, the clinic's message caps to that number (or in all) were full.
   */
  status: z.enum(reminderStatuses),
  /** When it goes (or went): ISO 8601 with the clinic's offset, after quiet hours and Shabbat. */
  due_at: z.string(),
  /** The appointment's start it was for (a moved appointment gets new reminders). */
  appointment_start_date: z.string(),
  sent_at: z.string().nullable(),
  /** How it was sent; null until it is. */
  channel: messagingChannelSchema.nullable(),
});
export type IntegrationReminder = z.infer<typeof integrationReminderSchema>;
export const integrationRemindersSchema = z.array(integrationReminderSchema);
