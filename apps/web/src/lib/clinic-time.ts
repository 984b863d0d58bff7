// Times on the clinic's clock, with nothing but Intl: one formatter per zone, kept (why not
// dayjs, with its figures: ADR 035).

/**
 * The formats the pages use, zero-padded: one date a patient sees (`DD.MM.YYYY`) and one time
 * (`HH:mm`), and `YYYY-MM-DD` for the calendar dates the code passes around (docs/formats.md).
 */
export type ClinicTimeFormat = 'YYYY-MM-DD' | 'DD.MM.YYYY' | 'DD.MM.YYYY HH:mm' | 'HH:mm';

// Constructing a DateTimeFormat costs far more than formatting with one: one per zone, kept.
const wallClocks = new Map<string, Intl.DateTimeFormat>();

function wallClock(timeZone: string): Intl.DateTimeFormat {
  let formatter = wallClocks.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      // Midnight is 00, never 24.
      hourCycle: 'h23',
    });
    wallClocks.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * An instant (ISO 8601) in one of the pages' formats, on the clinic's clock: a patient abroad or a
 * phone set to another zone still sees the times the clinic keeps.
 */
export function formatClinicTime(
  instant: string,
  clinicTimeZone: string,
  format: ClinicTimeFormat,
): string {
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const { type, value } of wallClock(clinicTimeZone).formatToParts(new Date(instant))) {
    parts[type] = value;
  }
  const year = (parts.year ?? '').padStart(4, '0');
  const tokens: Record<string, string> = {
    YYYY: year,
    YY: year.slice(-2),
    MM: parts.month ?? '',
    DD: parts.day ?? '',
    HH: parts.hour ?? '',
    mm: parts.minute ?? '',
  };
  return format.replace(/YYYY|YY|MM|DD|HH|mm/g, (token) => tokens[token] ?? token);
}

/** A calendar date (`YYYY-MM-DD`, already the clinic's) as patients see dates: `DD.MM.YYYY`. */
export function shortDate(date: string): string {
  const [year = '', month = '', day = ''] = date.split('-');
  return `${day}.${month}.${year}`;
}

/** Compact UTC, `YYYYMMDDTHHmmssZ`, as calendar links and iCalendar want it. */
export function compactUtc(instant: string): string {
  return new Date(instant)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/** A calendar date (`YYYY-MM-DD`) `days` later (or earlier): calendar days, not 24-hour steps. */
export function addCalendarDays(date: string, days: number): string {
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

// Calendar dates (`YYYY-MM-DD`, already the clinic's) in words, one formatter per language and
// form, kept (see wallClock above for why). UTC keeps a calendar date from moving a day.
const dateWords = new Map<string, Intl.DateTimeFormat>();
const wordForms = {
  /** "יום שלישי, 1 בדצמבר 2026": what a screen reader says of a date. */
  spoken: { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' },
  weekday: { weekday: 'long' },
  month: { month: 'long', year: 'numeric' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

function inWords(date: string, language: string, form: keyof typeof wordForms): string {
  const key = `${language} ${form}`;
  let formatter = dateWords.get(key);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat(language === 'he' ? 'he-IL' : 'en-GB', {
      timeZone: 'UTC',
      ...wordForms[form],
    });
    dateWords.set(key, formatter);
  }
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number);
  return formatter.format(new Date(Date.UTC(year, month - 1, day)));
}

/** A calendar date (`YYYY-MM-DD`, the clinic's) as said aloud in `language` ('he' or 'en'). */
export function spokenDate(date: string, language: string): string {
  return inWords(date, language, 'spoken');
}

/** The weekday of a calendar date (`YYYY-MM-DD`) in `language`: "יום שלישי", "Tuesday". */
export function weekdayName(date: string, language: string): string {
  return inWords(date, language, 'weekday');
}

/** A month (`YYYY-MM`) as a heading says it: "דצמבר 2026", "December 2026". */
export function monthName(month: string, language: string): string {
  return inWords(`${month}-01`, language, 'month');
}

/** An instant as said aloud on the clinic's clock: its date, then the time ("…, 08:30"). */
export function spokenDateTime(instant: string, clinicTimeZone: string, language: string): string {
  const date = formatClinicTime(instant, clinicTimeZone, 'YYYY-MM-DD');
  const time = formatClinicTime(instant, clinicTimeZone, 'HH:mm');
  return language === 'he'
    ? `${spokenDate(date, language)}, בשעה ${time}`
    : `${spokenDate(date, language)}, at ${time}`;
}
