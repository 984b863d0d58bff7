import type { WaitlistSlot } from '@marpe/shared';
import { localeOf } from '../../lib/format';

/**
 * Times on the waitlist page are the clinic's: dates are its calendar's (`YYYY-MM-DD`), a slot's
 * ISO 8601 start carries the clinic's offset (its wall time is in the text), and instants are
 * shown in the clinic's zone whatever the computer's is.
 */

/** A clinic date as people read it: "Sun 28 Mar" / "יום א׳, 28 במרץ". */
export function formatDate(date: string, language: string): string {
  return new Intl.DateTimeFormat(localeOf(language), {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  }).format(new Date(`${date}T12:00:00Z`));
}

/** An instant in the clinic's zone: date and time. */
export function formatInstant(iso: string, zone: string | undefined, language: string): string {
  return new Intl.DateTimeFormat(localeOf(language), {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: zone,
  }).format(new Date(iso));
}

/** The clinic date and wall time 'HH:mm' of a slot's start (ISO with the clinic's offset). */
export const slotDate = (iso: string): string => iso.slice(0, 10);
export const slotTime = (iso: string): string => iso.slice(11, 16);

/**
 * The slots to show, by date: those in the patient's part of the day, or all of them; each date
 * once, in order.
 */
export function slotsByDate(
  slots: readonly WaitlistSlot[],
  showAll: boolean,
): { date: string; slots: WaitlistSlot[] }[] {
  const days: { date: string; slots: WaitlistSlot[] }[] = [];
  for (const slot of slots) {
    if (!showAll && !slot.in_part_of_day) continue;
    const date = slotDate(slot.start);
    const last = days[days.length - 1];
    if (last?.date === date) last.slots.push(slot);
    else days.push({ date, slots: [slot] });
  }
  return days;
}
