import { and, count, eq, gt, lt, max, min, sql, type SQL } from 'drizzle-orm';
import type { Executor } from './db/client.js';
import type {
  authChallenges,
  authFailures,
  staffChallenges,
  staffFailures,
  LimitEventKind,
} from './db/schema.js';
import { limitEvents } from './db/schema.js';
import { AppError } from './errors.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** At most `max` actions of `kind` per subject in any rolling `windowMs`. */
export interface Limit {
  kind: LimitEventKind;
  max: number;
  windowMs: number;
}

/**
 * The per-subject limits a careful clinic expects (docs/decisions/020): far above what a
 * patient does by hand, low enough that a script cannot churn SMS, webhooks or phone hints.
 */
export const limits = {
  /** The last digits of the phone on file, shown for a wrong phone: per clinic + ID number. */
  phoneHint: { kind: 'phone_hint', max: 3, windowMs: DAY },
  /** Per patient. */
  book: { kind: 'book', max: 10, windowMs: DAY },
  cancel: { kind: 'cancel', max: 10, windowMs: DAY },
  /** Details messages asked for by the patient (on top of 3 per appointment). */
  detailsMessage: { kind: 'details_message', max: 10, windowMs: DAY },
  /** Waitlist joins (on top of 3 active entries): joining and leaving cannot loop. */
  waitlistJoin: { kind: 'waitlist_join', max: 10, windowMs: DAY },
} as const satisfies Record<string, Limit>;

/** Events older than every window are of no use: deleted by `pruneLimitEvents`. */
const LONGEST_WINDOW_MS = Math.max(...Object.values(limits).map((l) => l.windowMs));

/** 429 with the seconds until `until` (at least 1) as `details.retryAfterSeconds` (→ Retry-After). */
export function tooManyRequests(until: number, now: number, message?: string): AppError {
  return new AppError('too_many_requests', 429, message ?? 'Too many requests; try again later', {
    retryAfterSeconds: Math.max(1, Math.ceil((until - now) / 1000)),
  });
}

/**
 * Counts one action of `limit.kind` for `subject`, or throws 429 when the window is full. Call it
 * in the action's transaction: the count is serialised per subject, and rolled back with the action.
 */
export async function takeLimit(
  tx: Executor,
  limit: Limit,
  subject: string,
  now: number,
): Promise<void> {
  const key = `limit:${limit.kind}:${subject}`;
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`);
  const [row] = await tx
    .select({ count: count(), oldest: min(limitEvents.createdAt) })
    .from(limitEvents)
    .where(
      and(
        eq(limitEvents.kind, limit.kind),
        eq(limitEvents.subject, subject),
        gt(limitEvents.createdAt, new Date(now - limit.windowMs)),
      ),
    );
  if ((row?.count ?? 0) >= limit.max) {
    throw tooManyRequests((row?.oldest?.getTime() ?? now) + limit.windowMs, now);
  }
  await tx.insert(limitEvents).values({ kind: limit.kind, subject, createdAt: new Date(now) });
}

export async function pruneLimitEvents(ex: Executor, now: number): Promise<void> {
  await ex.delete(limitEvents).where(lt(limitEvents.createdAt, new Date(now - LONGEST_WINDOW_MS)));
}

/** How many rows fall in a window, and when the oldest and newest of them were written. */
export interface WindowCount {
  count: number;
  oldest: Date | null;
  newest: Date | null;
}

/** The tables of sent codes and wrong codes, patients' and staff's, that the code limits count. */
type CodeWindowTable =
  typeof authChallenges | typeof authFailures | typeof staffChallenges | typeof staffFailures;

export async function windowCount(
  ex: Executor,
  table: CodeWindowTable,
  where: SQL | undefined,
): Promise<WindowCount> {
  const [row] = await ex
    .select({ count: count(), oldest: min(table.createdAt), newest: max(table.createdAt) })
    .from(table)
    .where(where);
  return { count: row?.count ?? 0, oldest: row?.oldest ?? null, newest: row?.newest ?? null };
}

/** 429 until the oldest row of a full window leaves it. */
export function windowFull(window: WindowCount, windowMs: number, now: number): AppError {
  return tooManyRequests((window.oldest?.getTime() ?? now) + windowMs, now);
}

/** The send limits of a one-time code, the patients' and the staff's alike. */
export interface CodeSendRules {
  resendCooldownMs: number;
  sendWindowMs: number;
  maxSendsPerPhone: number;
  maxSendsPerClient: number;
}

/**
 * Throws 429 unless a code may be sent now: none to this phone within the cooldown, and fewer
 * than the most per phone and per client address in the window. Call it in the send's
 * transaction, after locking the phone and the address.
 */
export async function assertCodeSendAllowed(
  tx: Executor,
  counts: {
    sendsToPhoneSince: (ex: Executor, phone: string, since: Date) => Promise<WindowCount>;
    sendsFromClientSince: (ex: Executor, client: string, since: Date) => Promise<WindowCount>;
  },
  send: { phone: string; clientAddress: string },
  rules: CodeSendRules,
  now: number,
): Promise<void> {
  const cooldown = await counts.sendsToPhoneSince(
    tx,
    send.phone,
    new Date(now - rules.resendCooldownMs),
  );
  if (cooldown.count > 0) throw windowFull(cooldown, rules.resendCooldownMs, now);
  const since = new Date(now - rules.sendWindowMs);
  const toPhone = await counts.sendsToPhoneSince(tx, send.phone, since);
  if (toPhone.count >= rules.maxSendsPerPhone) throw windowFull(toPhone, rules.sendWindowMs, now);
  const fromClient = await counts.sendsFromClientSince(tx, send.clientAddress, since);
  if (fromClient.count >= rules.maxSendsPerClient) {
    throw windowFull(fromClient, rules.sendWindowMs, now);
  }
}
