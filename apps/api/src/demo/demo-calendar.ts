import { and, eq, isNotNull } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { GoogleStandIn } from '../modules/calendar-sync/providers/google/google-standin.js';
import type { GraphStandIn } from '../modules/calendar-sync/providers/microsoft/graph-standin.js';
import type { Database } from '../platform/db/client.js';
import { calendarConnections, caregivers, clinics } from '../platform/db/schema.js';
import { AppError, invalidField } from '../platform/errors.js';
import {
  addDaysToLocalDate,
  formatZonedIso,
  weekDayOfLocalDate,
  zonedDate,
  zonedToEpoch,
} from '../platform/zoned-time.js';
import { DEMO_CLINIC_ID } from './demo-clinic.js';

// Demo mode's Google Calendar: the demo clinic's caregivers' calendars live in the in-process
// stand-in (modules/calendar-sync/providers/google/google-standin.ts), with a few busy events from the front desk,
// and a dev route adds more, so a newcomer watches a time leave the booking page within seconds.

/** The next Sunday–Thursday on or after `date` (the demo clinic's working days). */
function nextWorkingDay(date: string): string {
  let day = date;
  while (weekDayOfLocalDate(day) > 4) day = addDaysToLocalDate(day, 1);
  return day;
}

/** The demo caregivers' calendar ids, with the clinic's zone. */
async function demoCalendars(db: Database, clinicId = DEMO_CLINIC_ID) {
  return db
    .select({
      caregiverId: caregivers.id,
      calendarId: caregivers.googleCalendarSyncCalendarId,
      timezone: clinics.timezone,
    })
    .from(caregivers)
    .innerJoin(clinics, eq(clinics.id, caregivers.clinicId))
    .where(
      and(eq(caregivers.clinicId, clinicId), isNotNull(caregivers.googleCalendarSyncCalendarId)),
    );
}

/**
 * Puts a front desk's week into each demo calendar: a phone booking and a weekly staff meeting on
 * the next working day, and a course day (all day) a week on. Called at each demo start: the
 * stand-in keeps nothing between runs.
 */
export async function seedDemoCalendars(standIn: GoogleStandIn, db: Database, now: number) {
  for (const { calendarId, timezone } of await demoCalendars(db)) {
    if (!calendarId) continue;
    standIn.addCalendar(calendarId, { timeZone: timezone });
    const day = nextWorkingDay(addDaysToLocalDate(zonedDate(now, timezone), 1));
    const at = (date: string, time: string) => ({
      dateTime: formatZonedIso(zonedToEpoch(`${date} ${time}`, timezone), timezone),
      timeZone: timezone,
    });
    standIn.putEvent(calendarId, {
      id: 'frontdeskphone1',
      status: 'confirmed',
      summary: 'תור טלפוני (מזכירות)',
      start: at(day, '10:00'),
      end: at(day, '11:00'),
    });
    standIn.putEvent(calendarId, {
      id: 'staffmeeting',
      status: 'confirmed',
      summary: 'ישיבת צוות',
      start: at(day, '13:00'),
      end: at(day, '13:30'),
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=8'],
    });
    const course = nextWorkingDay(addDaysToLocalDate(day, 7));
    standIn.putEvent(calendarId, {
      id: 'courseday',
      status: 'confirmed',
      summary: 'השתלמות',
      start: { date: course },
      end: { date: addDaysToLocalDate(course, 1) },
    });
  }
}

const localDateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/, 'must be a clinic time as YYYY-MM-DD HH:mm');

const addEventBody = z.object({
  caregiverId: z.number().int().positive(),
  start: localDateTime,
  end: localDateTime,
  summary: z.string().max(200).optional(),
});

const eventsQuery = z.object({ caregiverId: z.coerce.number().int().positive() });

export interface DemoCalendarRoutesOptions {
  google: GoogleStandIn | null;
  graph: GraphStandIn | null;
  db: Database;
}

/** `2027-03-25T09:00:00`, UTC, as the Graph stand-in stores an event's times. */
const graphTime = (at: number) => new Date(at).toISOString().slice(0, 19);

/**
 * Demo mode only: add a busy event to a caregiver's stand-in calendar (Google's, or Microsoft's
 * for a caregiver who connected one through the demo's consent page), and see what is there.
 */
export const demoCalendarRoutes: FastifyPluginAsyncZod<DemoCalendarRoutesOptions> = async (
  app,
  { google, graph, db },
) => {
  async function calendarOf(caregiverId: number) {
    const [row] = await db
      .select({
        calendarId: caregivers.googleCalendarSyncCalendarId,
        timezone: clinics.timezone,
        provider: calendarConnections.provider,
      })
      .from(caregivers)
      .innerJoin(clinics, eq(clinics.id, caregivers.clinicId))
      .leftJoin(calendarConnections, eq(calendarConnections.caregiverId, caregivers.id))
      .where(eq(caregivers.id, caregiverId));
    const standIn =
      row?.provider === 'microsoft'
        ? graph && { provider: 'microsoft' as const, graph }
        : google && { provider: 'google' as const, google };
    if (!row?.calendarId || !standIn) {
      throw new AppError(
        'caregiver_not_found',
        404,
        `Caregiver ${caregiverId} has no synced stand-in calendar`,
      );
    }
    return { calendarId: row.calendarId, timezone: row.timezone, standIn };
  }

  app.post(
    '/dev/calendar-events',
    {
      // Stands in for the clinic's front desk typing into Google Calendar (a curl, not a page of
      // ours): nothing of a patient's is at stake in a demo's stand-in calendar.
      config: { xsrf: false },
      schema: {
        tags: ['dev'],
        summary:
          "Demo mode only: a busy event in a caregiver's stand-in calendar, Google's or Microsoft's (clinic time); the provider's push brings it to Marpe within seconds",
        body: addEventBody,
      },
    },
    async (request) => {
      const { caregiverId, start, end, summary } = request.body;
      const { calendarId, timezone, standIn } = await calendarOf(caregiverId);
      const from = zonedToEpoch(start, timezone);
      const to = zonedToEpoch(end, timezone);
      if (to <= from) throw invalidField('end', 'end must be after start');
      const id = `demo${Date.now().toString(32)}${Math.floor(Math.random() * 1e6).toString(32)}`;
      const text = summary ?? 'תור טלפוני (מזכירות)';
      if (standIn.provider === 'microsoft') {
        standIn.graph.putEvent(calendarId, {
          id,
          subject: text,
          showAs: 'busy',
          start: graphTime(from),
          end: graphTime(to),
        });
      } else {
        standIn.google.putEvent(calendarId, {
          id,
          status: 'confirmed',
          summary: text,
          start: { dateTime: formatZonedIso(from, timezone), timeZone: timezone },
          end: { dateTime: formatZonedIso(to, timezone), timeZone: timezone },
        });
      }
      return { id, calendarId };
    },
  );

  app.get(
    '/dev/calendar-events',
    {
      schema: {
        tags: ['dev'],
        summary:
          "Demo mode only: the events of a caregiver's stand-in calendar, Google's or Microsoft's, Marpe's own included",
        querystring: eventsQuery,
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { calendarId, standIn } = await calendarOf(request.query.caregiverId);
      return standIn.provider === 'microsoft'
        ? standIn.graph.events(calendarId)
        : standIn.google.events(calendarId);
    },
  );
};
