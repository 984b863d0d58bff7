import { clinicErrorText, type CalendarSyncDeps } from './calendar-sync-deps.js';

/** After a last check without an answer, the calendar's next pass: well after the booking commits. */
const RECHECK_AFTER_UNKNOWN_MS = 5_000;

/** Whether [start, end) lies inside one of `cover` (merged intervals). */
function liesWithin(
  interval: { start: number; end: number },
  cover: { start: number; end: number }[],
) {
  return cover.some((c) => c.start <= interval.start && interval.end <= c.end);
}

/** The intervals with those that overlap or touch joined into one, in order. */
function mergeOverlapping(intervals: { start: number; end: number }[]) {
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  const out: { start: number; end: number }[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && i.start <= last.end) last.end = Math.max(last.end, i.end);
    else out.push({ ...i });
  }
  return out;
}

/**
 * The last check before a booking: the provider's free/busy for this one interval, with a short
 * timeout. Busy intervals that Marpe's own booked appointments cover are Marpe's own events
 * (the moved appointment, say) and do not count. No usable answer (a timeout, a rate limit, an
 * error entry for the calendar): 'unknown', the booking goes ahead on the mirror, and the calendar
 * is read again a few seconds later, after the booking is in: an event the mirror lacked then
 * becomes an `overlap` conflict in the desk and a webhook (ADR 040).
 */
export function createLastCheck(
  deps: Pick<CalendarSyncDeps, 'api' | 'repository' | 'clock' | 'log' | 'freeBusyTimeoutMs'>,
) {
  const { api, repository, clock, log } = deps;
  return async function lastCheck(
    caregiverId: number,
    start: number,
    end: number,
  ): Promise<'busy' | 'free' | 'unknown'> {
    if (!api) return 'free';
    const sync = await repository.findSync(caregiverId);
    // A calendar Marpe cannot read (not shared, not found) would fail this too: the booking
    // does not wait on it, and its state already tells the clinic. One failing for a while
    // (a rate limit, an outage) is still asked: its last answer may be the only one.
    if (!sync || !['syncing', 'read_only', 'error'].includes(sync.state)) return 'free';
    let busy: { start: number; end: number }[];
    try {
      busy = await api.freeBusy(
        sync.calendarId,
        { from: start, to: end },
        { zone: sync.timezone, signal: AbortSignal.timeout(deps.freeBusyTimeoutMs) },
      );
    } catch (error) {
      log.warn(
        { caregiverId, error: clinicErrorText(error) },
        'calendar freeBusy unanswered before a booking; booked on the mirror, calendar read again',
      );
      // Not at once: the pass must come after the booking's transaction, or it would mirror
      // the event before the appointment exists and never see the two overlap.
      await repository.markDue(caregiverId, new Date(clock() + RECHECK_AFTER_UNKNOWN_MS));
      return 'unknown';
    }
    const own = mergeOverlapping(
      (await repository.bookedIntervals(caregiverId, new Date(start), new Date(end))).map((b) => ({
        start: b.startAt.getTime(),
        end: b.endAt.getTime(),
      })),
    );
    return busy.some((b) => b.start < end && start < b.end && !liesWithin(b, own))
      ? 'busy'
      : 'free';
  };
}
