import type { Executor } from '../../platform/db/client.js';
import { takeMessageCap } from '../integration/message-caps.js';
import type { Messaging } from '../messaging/messaging.js';
import { NOTICE_URGENT_WITHIN_MS } from '../messaging/quiet-hours-at-send.js';
import { clinicQuietTime, nextAllowedAt, type QuietTime } from '../messaging/quiet-time.js';
import { changeNoticeMessage } from './appointment-sms.js';
import type { AppointmentsRepository } from './appointments-repository.js';

const MINUTE = 60_000;

/** How long a notice about a time that has already begun stays worth sending. */
const LATE_NOTICE_VALIDITY_MS = 60 * MINUTE;

export type ChangeKind = 'booked' | 'moved' | 'cancelled';

/**
 * When a notice of a change made at `now` goes: now outside quiet hours; inside them, when they
 * end, unless that is less than NOTICE_URGENT_WITHIN_MS before `soonestStart` (the earliest time
 * the change touches): then now, since a message at night beats one that comes too late.
 */
export function noticeSendAt(now: number, soonestStart: number, quiet: QuietTime): number {
  const allowed = nextAllowedAt(now, quiet);
  if (allowed <= now) return now;
  return soonestStart - allowed < NOTICE_URGENT_WITHIN_MS ? now : allowed;
}

export interface ChangeNoticesDeps {
  repository: Pick<AppointmentsRepository, 'findNoticeSubject' | 'findCaregiverName'>;
  messaging: Pick<Messaging, 'queueMessage'>;
  /** The link goes to `${publicOrigin}/appointments/{clinicId}` (the patient's appointments). */
  publicOrigin: string;
}

export interface NoticeRequest {
  appointmentId: number;
  change:
    | { kind: 'booked' }
    | { kind: 'cancelled' }
    | { kind: 'moved'; previousStart: Date; previousCaregiverId: number };
  /** Who made the change: the message caps' audit actor. */
  actor: string;
  now: number;
  /**
   * What the request said (`send_sms`): true, told whatever the clinic's setting; false, not told
   * of this change (the desk unticked it: the patient knows already); absent, the setting decides.
   */
  requested?: boolean;
  /** The message caps were counted already (a requested message, refused with a 429). */
  capTaken?: boolean;
}

/**
 * `queued`: the notice is in the outbox; `off`: the clinic does not tell this kind (the caller may
 * send something else); `refused`: the message caps are full (audited as message.refused; the
 * change stands, the patient is not told).
 */
export type NoticeOutcome = 'queued' | 'off' | 'refused';

/**
 * The notices telling patients of every change to their appointments, queued in the change's
 * transaction (they leave only if it commits; kick messaging after the commit), by the clinic's
 * channel, in the patient's language, counted by the message caps and kept out of quiet hours.
 */
export function createChangeNotices({ repository, messaging, publicOrigin }: ChangeNoticesDeps) {
  return {
    async queue(tx: Executor, request: NoticeRequest): Promise<NoticeOutcome> {
      const { change, now } = request;
      const subject = await repository.findNoticeSubject(tx, request.appointmentId);
      if (!subject) throw new Error(`change notice: no appointment ${request.appointmentId}`);
      const setting = {
        booked: subject.notifyBooked,
        moved: subject.notifyMoved,
        cancelled: subject.notifyCancelled,
      }[change.kind];
      if (!(request.requested ?? setting)) return 'off';
      const kind = `appointment_${change.kind}` as const;
      if (request.capTaken !== true) {
        const refused = await takeMessageCap(tx, {
          clinicId: subject.clinicId,
          to: subject.phone,
          kind,
          actor: request.actor,
          now,
        });
        if (refused) return 'refused';
      }
      const start = subject.startAt.getTime();
      let previousCaregiverName: string | null = null;
      if (change.kind === 'moved') {
        const name = await repository.findCaregiverName(tx, change.previousCaregiverId);
        previousCaregiverName = name === subject.caregiverName ? null : name;
      }
      const body = changeNoticeMessage(
        {
          clinicName: subject.clinicName,
          caregiverName: subject.caregiverName,
          timezone: subject.timezone,
          start,
          link: `${publicOrigin}/appointments/${subject.clinicId}`,
        },
        change.kind === 'moved'
          ? { kind: 'moved', previousStart: change.previousStart.getTime(), previousCaregiverName }
          : change,
        subject.language,
      );
      const soonest =
        change.kind === 'moved' ? Math.min(start, change.previousStart.getTime()) : start;
      // The quiet hours (and Shabbat, when observed) of the clinic's reminders.
      const sendAt = noticeSendAt(now, soonest, clinicQuietTime(subject));
      await messaging.queueMessage(tx, {
        clinicId: subject.clinicId,
        to: subject.phone,
        body,
        kind,
        // Of no use once the time it names has begun (a moment's grace for a late change).
        expiresAt: new Date(Math.max(start, now + LATE_NOTICE_VALIDITY_MS)),
        ...(sendAt > now ? { notBefore: new Date(sendAt) } : {}),
      });
      return 'queued';
    },
  };
}

export type ChangeNotices = ReturnType<typeof createChangeNotices>;
