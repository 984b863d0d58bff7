// The waitlist's rules (docs/booking.md "Waitlist"): a patient asks to be told when a
// time frees up with a caregiver, for a type, on a range of dates and a part of the day. Zod-free,
// so that the booking page's dialog can apply them without bringing zod into the browser;
// waitlist.ts builds the contract's schemas on them.

/** Morning: slots starting before 12:00 clinic time; afternoon: from 12:00; any: both. */
export const partsOfDay = ['morning', 'afternoon', 'any'] as const;
export type PartOfDay = (typeof partsOfDay)[number];

/** The first afternoon minute, clinic time ('HH:mm' compares in time order). */
export const AFTERNOON_STARTS_AT = '12:00';

/** The longest range one entry may ask for, both ends counted (fromDate + 13 days). */
export const WAITLIST_MAX_DAYS = 14;

/** Active entries (waiting, range not over) one patient may hold at once: 409 waitlist_full. */
export const WAITLIST_MAX_ACTIVE = 3;

/** Does a slot starting at this clinic wall time 'HH:mm' fall in the part of day? */
export function isInPartOfDay(time: string, partOfDay: PartOfDay): boolean {
  if (partOfDay === 'any') return true;
  return partOfDay === 'morning' ? time < AFTERNOON_STARTS_AT : time >= AFTERNOON_STARTS_AT;
}

/** Whole days from `from` to `to` (both 'YYYY-MM-DD'); negative when `to` is before. */
export function daysBetween(from: string, to: string): number {
  return (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
}
