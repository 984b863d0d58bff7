import { CandleLightingEvent, HavdalahEvent, HDate, HebrewCalendar, Location } from '@hebcal/core';
import { addDaysToLocalDate } from '../../platform/zoned-time.js';

/** An interval of instants, epoch milliseconds, start included, end excluded. */
export interface Span {
  start: number;
  end: number;
}

// Jerusalem's times: its candle lighting, 40 minutes before sunset, is the earliest in Israel, so a
// reminder kept out of this span is out of Shabbat everywhere in the country.
const JERUSALEM = Location.lookup('Jerusalem');

const spansByDate = new Map<string, Span[]>();
const CACHE_LIMIT = 2000;

/**
 * Shabbat and Yom Tov as spans from candle lighting to havdalah (Israel's calendar: one day of
 * Yom Tov), for those that touch the local dates `from`…`to` ('YYYY-MM-DD'). Candle lighting on a
 * second night (Yom Tov into Shabbat) falls inside the span already begun, which runs on to the
 * havdalah that ends both.
 */
export function restSpans(from: string, to: string): Span[] {
  const key = `${from}/${to}`;
  const cached = spansByDate.get(key);
  if (cached) return cached;
  // Two days either side, so a span that began before `from` is seen from its candle lighting.
  const events = HebrewCalendar.calendar({
    start: hebrewDate(addDaysToLocalDate(from, -3)),
    end: hebrewDate(addDaysToLocalDate(to, 2)),
    candlelighting: true,
    location: JERUSALEM,
    il: true,
  });
  const spans: Span[] = [];
  let open: number | null = null;
  for (const event of events) {
    if (!(event instanceof CandleLightingEvent || event instanceof HavdalahEvent)) continue;
    const at = event.eventTime.getTime();
    if (event instanceof CandleLightingEvent) open ??= at;
    else if (open !== null) {
      spans.push({ start: open, end: at });
      open = null;
    }
  }
  if (spansByDate.size >= CACHE_LIMIT) spansByDate.clear();
  spansByDate.set(key, spans);
  return spans;
}

/** A Gregorian 'YYYY-MM-DD' as hebcal reads dates: by the local calendar fields of a Date. */
function hebrewDate(date: string): HDate {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new HDate(new Date(year, month - 1, day));
}
