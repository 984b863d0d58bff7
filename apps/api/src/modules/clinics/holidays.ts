import { HebrewCalendar } from '@hebcal/core';
import type { HolidaySuggestion, IsraeliHoliday } from '@marpe/shared';

/**
 * The holidays a clinic in Israel usually closes on: the days of Yom Tov in Israel's calendar (one
 * day each, Rosh Hashana's two) and Independence Day, as hebcal names them, with our own names.
 */
const holidays: readonly { match: RegExp; holiday: IsraeliHoliday; he: string; en: string }[] = [
  {
    match: /^Rosh Hashana \d+$/,
    holiday: 'rosh_hashana_1',
    he: 'ראש השנה (יום א׳)',
    en: 'Rosh Hashanah (day 1)',
  },
  {
    match: /^Rosh Hashana II$/,
    holiday: 'rosh_hashana_2',
    he: 'ראש השנה (יום ב׳)',
    en: 'Rosh Hashanah (day 2)',
  },
  { match: /^Yom Kippur$/, holiday: 'yom_kippur', he: 'יום כיפור', en: 'Yom Kippur' },
  { match: /^Sukkot I$/, holiday: 'sukkot', he: 'סוכות', en: 'Sukkot' },
  {
    match: /^Shmini Atzeret$/,
    holiday: 'shmini_atzeret',
    he: 'שמיני עצרת ושמחת תורה',
    en: 'Shemini Atzeret and Simchat Torah',
  },
  { match: /^Pesach I$/, holiday: 'pesach_1', he: 'פסח', en: 'Passover' },
  { match: /^Pesach VII$/, holiday: 'pesach_7', he: 'שביעי של פסח', en: 'Passover (seventh day)' },
  {
    // Moved by law when the 5th of Iyar falls near Shabbat; hebcal knows the rule.
    match: /^Yom HaAtzma'ut$/,
    holiday: 'yom_haatzmaut',
    he: 'יום העצמאות',
    en: 'Independence Day',
  },
  { match: /^Shavuot$/, holiday: 'shavuot', he: 'שבועות', en: 'Shavuot' },
];

const pad = (n: number) => String(n).padStart(2, '0');

/** The year's holidays (Gregorian `year`), by date. */
export function holidaySuggestions(year: number): HolidaySuggestion[] {
  const events = HebrewCalendar.calendar({
    // hebcal reads a Date by its local calendar fields.
    start: new Date(year, 0, 1),
    end: new Date(year, 11, 31),
    il: true,
    noMinorFast: true,
    noRoshChodesh: true,
    noSpecialShabbat: true,
  });
  const suggestions: HolidaySuggestion[] = [];
  for (const event of events) {
    const known = holidays.find((h) => h.match.test(event.getDesc()));
    if (!known) continue;
    const day = event.getDate().greg();
    suggestions.push({
      date: `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`,
      holiday: known.holiday,
      name_he: known.he,
      name_en: known.en,
    });
  }
  return suggestions.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}
