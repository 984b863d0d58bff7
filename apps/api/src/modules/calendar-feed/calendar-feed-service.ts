import { and, asc, eq, gt } from 'drizzle-orm';
import ical, { ICalCalendarMethod } from 'ical-generator';
import type { CalendarFeedCreated, CalendarFeedState } from '@marpe/shared';
import { audit } from '../../platform/audit.js';
import { requireClinicCaregiver } from '../../platform/clinic-caregiver.js';
import { randomToken, sha256Hex } from '../../platform/crypto.js';
import type { Database } from '../../platform/db/client.js';
import {
  appointments,
  appointmentTypes,
  calendarFeeds,
  caregivers,
  clinics,
  patients,
} from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { calendarEventText } from '../calendar-sync/calendar-event-text.js';
import type { ClinicActor } from '../../platform/http/integration-routes.js';

const DAY = 86_400_000;

/** The feed keeps the last week, so this morning's patients stay in the caregiver's calendar. */
export const FEED_PAST_DAYS = 7;
/** Events in one feed at most, by start: years of a full diary. */
export const FEED_MAX_EVENTS = 5000;
/** How often calendar apps are asked to fetch the feed again (seconds). */
export const FEED_REFRESH_SECONDS = 15 * 60;

/** A link token as randomToken makes it: 43 base64url characters (256 bits). */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface CalendarFeedDeps {
  db: Database;
  clock: () => number;
  /** config.publicOrigin: feed URLs and event UIDs are made from it. */
  publicOrigin: string;
}

const feedNotFound = () => new AppError('not_found', 404, 'No such calendar feed');

/**
 * Each caregiver's secret iCalendar feed (docs/calendar-feed.md): a URL with a 256-bit token,
 * stored as its SHA-256, made and replaced through the integration API; calendar apps subscribe to
 * it.
 */
export function createCalendarFeeds({ db, clock, publicOrigin }: CalendarFeedDeps) {
  const host = new URL(publicOrigin).host;

  return {
    /** A new URL for the caregiver's feed, replacing any earlier one (which stops working). */
    async create(clinicActor: ClinicActor, caregiverId: number): Promise<CalendarFeedCreated> {
      const token = randomToken();
      const now = new Date(clock());
      await db.transaction(async (tx) => {
        const caregiver = await requireClinicCaregiver(tx, clinicActor.clinicId, caregiverId);
        const [earlier] = await tx
          .delete(calendarFeeds)
          .where(eq(calendarFeeds.caregiverId, caregiver.id))
          .returning({ caregiverId: calendarFeeds.caregiverId });
        await tx
          .insert(calendarFeeds)
          .values({ caregiverId: caregiver.id, tokenHash: sha256Hex(token), createdAt: now });
        await audit(tx, {
          clinicId: clinicActor.clinicId,
          actor: clinicActor.actor,
          action: 'calendar_feed.create',
          targetType: 'caregiver',
          targetId: caregiver.id,
          details: { replaced: earlier !== undefined },
          at: now,
        });
      });
      return {
        caregiver_id: caregiverId,
        url: `${publicOrigin}/api/calendar-feed/${token}.ics`,
        created_at: now.toISOString(),
      };
    },

    /** Whether the caregiver has a live feed; never its URL (it is shown once). */
    async state(clinicId: number, caregiverId: number): Promise<CalendarFeedState> {
      const caregiver = await requireClinicCaregiver(db, clinicId, caregiverId);
      const [row] = await db
        .select({ createdAt: calendarFeeds.createdAt })
        .from(calendarFeeds)
        .where(eq(calendarFeeds.caregiverId, caregiver.id));
      return {
        caregiver_id: caregiver.id,
        active: row !== undefined,
        created_at: row?.createdAt.toISOString() ?? null,
      };
    },

    /** Revokes the caregiver's feed URL (its subscribers get 404 from now on). */
    async revoke(clinicActor: ClinicActor, caregiverId: number): Promise<void> {
      await db.transaction(async (tx) => {
        const caregiver = await requireClinicCaregiver(tx, clinicActor.clinicId, caregiverId);
        const removed = await tx
          .delete(calendarFeeds)
          .where(eq(calendarFeeds.caregiverId, caregiver.id))
          .returning({ caregiverId: calendarFeeds.caregiverId });
        if (removed.length > 0) {
          await audit(tx, {
            clinicId: clinicActor.clinicId,
            actor: clinicActor.actor,
            action: 'calendar_feed.revoke',
            targetType: 'caregiver',
            targetId: caregiver.id,
            at: new Date(clock()),
          });
        }
      });
    },

    /**
     * The feed of a token (RFC 5545): the caregiver's booked appointments from a week ago on, by
     * start, in the clinic's `calendar_event_detail`. 404 for an unknown, replaced or revoked token.
     */
    async render(token: string): Promise<string> {
      if (!TOKEN_PATTERN.test(token)) throw feedNotFound();
      const [feed] = await db
        .select({
          caregiverId: caregivers.id,
          caregiverName: caregivers.name,
          clinicName: clinics.name,
          detail: clinics.calendarEventDetail,
        })
        .from(calendarFeeds)
        .innerJoin(caregivers, eq(caregivers.id, calendarFeeds.caregiverId))
        .innerJoin(clinics, eq(clinics.id, caregivers.clinicId))
        .where(eq(calendarFeeds.tokenHash, sha256Hex(token)));
      if (!feed) throw feedNotFound();

      const now = clock();
      const rows = await db
        .select({
          id: appointments.id,
          startAt: appointments.startAt,
          endAt: appointments.endAt,
          updatedAt: appointments.updatedAt,
          source: appointments.source,
          typeName: appointmentTypes.name,
          firstName: patients.firstName,
          lastName: patients.lastName,
          phone: patients.phone,
        })
        .from(appointments)
        .innerJoin(appointmentTypes, eq(appointmentTypes.id, appointments.appointmentTypeId))
        .innerJoin(patients, eq(patients.id, appointments.patientId))
        .where(
          and(
            eq(appointments.caregiverId, feed.caregiverId),
            eq(appointments.status, 'booked'),
            gt(appointments.endAt, new Date(now - FEED_PAST_DAYS * DAY)),
          ),
        )
        .orderBy(asc(appointments.startAt), asc(appointments.id))
        .limit(FEED_MAX_EVENTS);

      const calendar = ical({
        name: `${feed.caregiverName} – ${feed.clinicName}`,
        prodId: { company: 'Marpe', product: 'Clinic diary', language: 'HE' },
        method: ICalCalendarMethod.PUBLISH,
        // Times in UTC (…Z): every calendar app reads them without a VTIMEZONE block.
        ttl: FEED_REFRESH_SECONDS,
      });
      for (const row of rows) {
        const text = calendarEventText(feed.detail, {
          typeName: row.typeName,
          patient: { firstName: row.firstName, lastName: row.lastName, phone: row.phone },
          source: row.source,
        });
        calendar.createEvent({
          id: `appointment-${row.id}@${host}`,
          start: row.startAt,
          end: row.endAt,
          stamp: row.updatedAt,
          lastModified: row.updatedAt,
          summary: text.summary,
          description: text.description,
        });
      }
      return calendar.toString();
    },
  };
}

export type CalendarFeeds = ReturnType<typeof createCalendarFeeds>;
