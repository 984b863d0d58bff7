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

/** The day of the month of a `YYYY-MM-DD`, as the picker's button shows it: "1", "28". */
export function dayOfMonth(date: string): string {
  return String(Number(date.slice(8, 10)));
}
