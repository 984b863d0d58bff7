// One interface over every external calendar Marpe mirrors (Google Calendar, Microsoft 365):
// the sync, the last check and the write-back speak only this, and each provider's folder
// (providers/google, providers/microsoft) turns it into its own API (ADR 043).

/**
 * One event instance as the mirror needs it. `busy` is the provider's "show as" already mapped
 * as a clinic expects (docs/calendar-sync.md, "What blocks a slot"): 'free' never blocks a timed
 * event; an all-day 'free' blocks only while the clinic's all-day setting is on.
 */
export interface ProviderEvent {
  id: string;
  /** Epoch ms; null when the provider sent no usable time (a cancelled instance, say). */
  start: number | null;
  end: number | null;
  allDay: boolean;
  busy: 'busy' | 'tentative' | 'free';
  /** Deleted, cancelled, or declined by the calendar's owner: gone from the diary. */
  cancelled: boolean;
  /** Marpe's own event: the appointment it shows. */
  appointmentId: number | null;
  /** The recurring series the instance belongs to, if any. */
  seriesId: string | null;
}

/** What changed since a cursor (a sync token, a delta link), every page read. */
export interface ProviderChanges {
  /** Read from scratch: the events are the whole calendar, not changes. */
  full: boolean;
  events: ProviderEvent[];
  /** Where the next read starts; null when the provider gave none (the next read is full). */
  cursor: string | null;
  /** The calendar may be read but not written: its events block, Marpe's bookings stay out. */
  readOnly: boolean;
}

/** What Marpe writes of an appointment (times as local wall time of `timeZone`). */
export interface ProviderEventWrite {
  appointmentId: number;
  summary: string;
  description: string;
  /** `YYYY-MM-DDTHH:mm:ss±hh:mm` (with the zone's offset). */
  start: string;
  end: string;
  timeZone: string;
}

/** A push subscription (a Google channel, a Graph subscription) as stored with the sync. */
export interface ProviderChannel {
  id: string;
  resourceId: string;
  calendarId: string;
}

export interface CalendarProvider {
  /** Null unless a service account reaches the calendars (Google only). */
  readonly serviceAccountEmail: string | null;
  /**
   * Every change since `cursor` (everything without one), all pages followed. A cursor the
   * provider no longer knows throws kind 'stale_cursor': the caller reads again from scratch.
   * `zone` places all-day dates; `window` bounds a full read where the provider needs one.
   */
  listChanges(
    calendarId: string,
    cursor: string | null,
    options: { zone: string; window: { from: number; to: number } },
  ): Promise<ProviderChanges>;
  /**
   * Opens push notifications for the calendar's events; `token` comes back with each. The
   * provider may grant less than `expiration` (asked at `now`): the answer says until when.
   */
  openChannel(
    calendarId: string,
    channel: { id: string; token: string; address: string; expiration: number; now: number },
  ): Promise<{ id: string; resourceId: string; expiration: number }>;
  /**
   * Extends a live channel (the provider may grant less than `expiration`, asked at `now`), its
   * token unchanged. Null: this provider's channels cannot be extended (Google's: a new one is
   * opened), or the channel is gone.
   */
  renewChannel(
    channel: ProviderChannel,
    renewal: { expiration: number; now: number },
  ): Promise<{ expiration: number } | null>;
  stopChannel(channel: ProviderChannel): Promise<void>;
  /**
   * Busy intervals of this one calendar in [from, to) (epoch ms); throws when it cannot answer.
   * `zone` places all-day dates, as in `listChanges`.
   */
  freeBusy(
    calendarId: string,
    window: { from: number; to: number },
    options: { zone: string; signal?: AbortSignal },
  ): Promise<{ start: number; end: number }[]>;
  /**
   * Makes the calendar show the appointment: the event updated if it is there (`knownEventId`,
   * or found by the appointment), else created, so a retried write never makes two. Returns the
   * event's id. A calendar that may not be written throws kind 'read_only'.
   */
  writeEvent(
    calendarId: string,
    event: ProviderEventWrite,
    knownEventId: string | null,
  ): Promise<string>;
  /** Deletes the event; one already gone is not an error. */
  deleteEvent(calendarId: string, eventId: string): Promise<void>;
}

export type CalendarErrorKind =
  | 'no_access'
  | 'not_found'
  | 'rate_limited'
  | 'stale_cursor'
  | 'read_only'
  | 'unavailable'
  | 'server_wide';

/**
 * A provider's refusal or failure, in words the sync acts on. `status` 0: no answer (network,
 * timeout). `retryAfter` (ms): the provider said when to come back (429/503 `Retry-After`).
 * 'server_wide': Marpe's own credentials failed, whatever calendar was asked about.
 */
export class CalendarProviderError extends Error {
  override name = 'CalendarProviderError';
  constructor(
    readonly status: number,
    readonly kind: CalendarErrorKind,
    message: string,
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }
}

/** `Retry-After` as ms (seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterOf(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(at - now, 0) : null;
}
