/** One month of the date picker: `YYYY-MM` and its dates (`YYYY-MM-DD`), in order. */
export interface MonthOfDates {
  month: string;
  dates: string[];
}

/** The offered dates in runs of one month each, for the picker's month headings. */
export function groupByMonth(dates: readonly string[]): MonthOfDates[] {
  const months: MonthOfDates[] = [];
  for (const date of dates) {
    const month = date.slice(0, 7);
    const last = months.at(-1);
    if (last?.month === month) last.dates.push(date);
    else months.push({ month, dates: [date] });
  }
  return months;
}

// One formatter per language, kept: building one costs far more than using it.
const monthFormats = new Map<string, Intl.DateTimeFormat>();

/** A month (`YYYY-MM`) as its heading says it: "דצמבר 2026", "December 2026". */
export function monthHeading(month: string, language: string): string {
  let formatter = monthFormats.get(language);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat(language === 'he' ? 'he-IL' : 'en-GB', {
      // A calendar month, not an instant: UTC keeps it from moving.
      timeZone: 'UTC',
      month: 'long',
      year: 'numeric',
    });
    monthFormats.set(language, formatter);
  }
  const [year = 0, monthIndex = 1] = month.split('-').map(Number);
  return formatter.format(new Date(Date.UTC(year, monthIndex - 1, 1)));
}

/** The day of the month of a `YYYY-MM-DD`, as the picker's button shows it: "1", "28". */
export function dayOfMonth(date: string): string {
  return String(Number(date.slice(8, 10)));
}
