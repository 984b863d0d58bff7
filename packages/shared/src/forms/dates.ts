/**
 * Calendar dates for the intake form (docs/forms.md#validations: dateFormat, birthDateFormat and
 * the `field:age…` conditions). Pure: "today" is always passed in, so the page, the server and the
 * tests control time. Dates are written day/month/year (`DD/MM/YYYY`).
 */

/** A day on the calendar, with no time and no zone. `month` is 1–12. */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Negative, zero or positive as `a` is before, on or after `b`. */
export function compareCalendarDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/** The calendar date an instant falls on in a time zone (the clinics' is Asia/Jerusalem). */
export function calendarDateOf(instant: Date, timeZone = 'Asia/Jerusalem'): CalendarDate {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(instant);
  const part = (type: string): number => Number(parts.find((p) => p.type === type)?.value);
  return { year: part('year'), month: part('month'), day: part('day') };
}

/** `DD/MM/YYYY`, zero-padded. */
export function formatDayMonthYear(date: CalendarDate): string {
  const pad = (n: number, width: number): string => String(n).padStart(width, '0');
  return `${pad(date.day, 2)}/${pad(date.month, 2)}/${pad(date.year, 4)}`;
}

const shortYear = /^(\d{2})\/(\d{2})\/(\d{2})$/;

/**
 * dateFormat normalisation: dots and dashes become slashes, then an 8-character
 * `DD/MM/YY` is expanded to a 4-digit year. Century rule: a 2-digit year up to today's
 * (`yy ≤ today.year % 100`) is 20yy, a later one 19yy — `01.02.03` is 2003, `01.02.99` is 1999,
 * so a 2-digit year never lands in the future. Anything else is returned with only the
 * separators changed (it then fails `parseDayMonthYear` if it is not `DD/MM/YYYY`).
 */
export function normaliseDate(value: string, today: CalendarDate): string {
  const slashed = value.replace(/[.-]/g, '/');
  const short = shortYear.exec(slashed);
  if (!short) return slashed;
  const [, day, month, yy] = short;
  const century =
    Number(yy) <= today.year % 100
      ? today.year - (today.year % 100)
      : today.year - (today.year % 100) - 100;
  return `${day}/${month}/${String(century + Number(yy)).padStart(4, '0')}`;
}

const dayMonthYear = /^(\d{2})\/(\d{2})\/(\d{4})$/;

/**
 * A real `DD/MM/YYYY` date (length 10, leap years honoured, year 0001–9999), or null. No
 * normalisation: call `normaliseDate` first for what people type.
 */
export function parseDayMonthYear(value: string): CalendarDate | null {
  const match = dayMonthYear.exec(value);
  if (!match) return null;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return null;
  }
  return { year, month, day };
}

/**
 * Age in whole years on `today`, as people count birthdays: it goes up on the birthday itself.
 * Someone born on 29 February has their birthday on 1 March in non-leap years (on 28 February
 * they are still the younger age). Negative when `birth` is after `today`.
 */
export function ageOn(birth: CalendarDate, today: CalendarDate): number {
  const years = today.year - birth.year;
  const beforeBirthday =
    today.month < birth.month || (today.month === birth.month && today.day < birth.day);
  return beforeBirthday ? years - 1 : years;
}
