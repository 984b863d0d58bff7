import type { CalendarConnectionLink, CalendarSyncStatus } from '@marpe/shared';

export type CaregiverCalendar = CalendarSyncStatus['caregivers'][number];
export type CalendarState = CaregiverCalendar['state'] | 'none';

/** The caregiver's calendar as the sync status tells it; null when none is connected. */
export const calendarOf = (
  status: CalendarSyncStatus | undefined,
  caregiverId: number,
): CaregiverCalendar | null =>
  status?.caregivers.find((calendar) => calendar.caregiver_id === caregiverId) ?? null;

/** How loud the state is: in step, on its way, or waiting for someone to act. */
export function toneOf(state: CalendarState): 'success' | 'info' | 'warning' | 'error' {
  switch (state) {
    case 'syncing':
      return 'success';
    case 'none':
    case 'pending':
      return 'info';
    case 'read_only':
      return 'warning';
    default:
      return 'error';
  }
}

/**
 * The key of what the state means and what to do: where the fix differs by how the calendar is
 * reached (a new consent link, or sharing with the service account), by its connection.
 */
export function explanationKey(calendar: CaregiverCalendar | null): string {
  if (calendar === null) return 'calendar.explain.none';
  switch (calendar.state) {
    case 'pending':
    case 'syncing':
      return `calendar.explain.${calendar.state}`;
    case 'error': {
      // Microsoft's calendars say Microsoft; Google's (and the service account's) say Google.
      const who = calendar.provider === 'microsoft' ? 'Microsoft' : '';
      return calendar.last_error
        ? `calendar.explain.error${who}`
        : `calendar.explain.errorUnknown${who}`;
    }
    case 'read_only':
      return `calendar.explain.read_only.${calendar.connection}`;
    default:
      return `calendar.explain.${calendar.state}.${calendar.provider === 'microsoft' ? 'microsoft' : calendar.connection}`;
  }
}

/** A link the caregiver may still open: made on this desk, not yet expired. */
export const isLive = (link: CalendarConnectionLink | null | undefined, now: number) =>
  link !== null && link !== undefined && Date.parse(link.expires_at) > now;

/** An instant as `DD.MM.YYYY HH:mm` on the clinic's clocks, in either language. */
export function clinicStamp(iso: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? '';
  return `${part('day')}.${part('month')}.${part('year')} ${part('hour')}:${part('minute')}`;
}
