import { localeOf } from '../../lib/format';

/** An instant's date (YYYY-MM-DD) in the clinic's time zone. */
export const clinicDate = (at: number, zone: string): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(at);

/** An appointment's start as the clinic reads it: its date and time in the clinic's zone. */
export const formatDateTime = (iso: string, zone: string, language: string): string =>
  new Intl.DateTimeFormat(localeOf(language), {
    timeZone: zone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));

/**
 * A date (YYYY-MM-DD, a calendar day) or an instant's day, in the reader's language. Calendar days
 * are read at noon UTC so no zone shifts them.
 */
export const formatDate = (value: string, language: string): string =>
  new Intl.DateTimeFormat(localeOf(language), {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    ...(/^\d{4}-\d{2}-\d{2}$/.test(value) ? { timeZone: 'UTC' } : {}),
  }).format(new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T12:00:00Z` : value));
