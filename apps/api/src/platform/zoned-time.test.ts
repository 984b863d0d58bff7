import { describe, expect, it } from 'vitest';
import {
  addDaysToLocalDate,
  dayNumberToLocalDate,
  formatZonedIso,
  formatZonedLocal,
  isValidTimeZone,
  localDateToDayNumber,
  startOfZonedDay,
  weekDayOfLocalDate,
  zonedDate,
  zonedDateMinutesToEpoch,
  zonedToEpoch,
  zoneOffsetMs,
} from './zoned-time.js';

const J = 'Asia/Jerusalem';
const HOUR = 3_600_000;
const iso = (local: string, zone = J) => formatZonedIso(zonedToEpoch(local, zone), zone);

describe('zonedToEpoch and formatZonedIso in Asia/Jerusalem', () => {
  it('maps an ordinary time to its single instant', () => {
    expect(zonedToEpoch('2027-01-10 09:00', J)).toBe(Date.parse('2027-01-10T07:00:00Z'));
    expect(zonedToEpoch('2027-07-10 09:00', J)).toBe(Date.parse('2027-07-10T06:00:00Z'));
    expect(iso('2027-07-10 09:00')).toBe('2027-07-10T09:00:00+03:00');
  });

  describe('spring forward on 2027-03-26 (02:00 → 03:00, +02:00 → +03:00)', () => {
    it('keeps +02:00 before the change', () => {
      expect(zonedToEpoch('2027-03-26 01:30', J)).toBe(Date.parse('2027-03-25T23:30:00Z'));
      expect(iso('2027-03-26 01:30')).toBe('2027-03-26T01:30:00+02:00');
      expect(iso('2027-03-26 01:59')).toBe('2027-03-26T01:59:00+02:00');
    });

    it('maps a time inside the gap forward past it', () => {
      expect(iso('2027-03-26 02:00')).toBe('2027-03-26T03:00:00+03:00');
      expect(iso('2027-03-26 02:30')).toBe('2027-03-26T03:30:00+03:00');
      expect(zonedToEpoch('2027-03-26 02:30', J)).toBe(Date.parse('2027-03-26T00:30:00Z'));
    });

    it('uses +03:00 from 03:00', () => {
      expect(zonedToEpoch('2027-03-26 03:00', J)).toBe(Date.parse('2027-03-26T00:00:00Z'));
      expect(iso('2027-03-26 03:00')).toBe('2027-03-26T03:00:00+03:00');
    });

    it('formats the instants around the change with the right offset', () => {
      const change = Date.parse('2027-03-26T00:00:00Z');
      expect(formatZonedIso(change - 1000, J)).toBe('2027-03-26T01:59:59+02:00');
      expect(formatZonedIso(change, J)).toBe('2027-03-26T03:00:00+03:00');
      expect(zoneOffsetMs(change - 1, J)).toBe(2 * HOUR);
      expect(zoneOffsetMs(change, J)).toBe(3 * HOUR);
    });

    it('with the clamp policy maps a gap time to the instant of the jump', () => {
      const jump = Date.parse('2027-03-26T00:00:00Z');
      expect(zonedDateMinutesToEpoch('2027-03-26', 150, J, 'clamp')).toBe(jump);
      expect(zonedDateMinutesToEpoch('2027-03-26', 120, J, 'clamp')).toBe(jump);
      expect(zonedDateMinutesToEpoch('2027-03-26', 150, J)).toBe(jump + HOUR / 2);
    });
  });

  describe.each([
    ['2026-10-25', '2026-10-24T23:00:00Z'],
    ['2027-10-31', '2027-10-30T23:00:00Z'],
  ])('fall back on %s (02:00 → 01:00, +03:00 → +02:00)', (date, changeUtc) => {
    const change = Date.parse(changeUtc);

    it('maps an ambiguous time to the earlier instant', () => {
      expect(zonedToEpoch(`${date} 01:30`, J)).toBe(change - HOUR / 2);
      expect(iso(`${date} 01:30`)).toBe(`${date}T01:30:00+03:00`);
      expect(iso(`${date} 01:00`)).toBe(`${date}T01:00:00+03:00`);
    });

    it('maps the times outside the repeated hour to their single instant', () => {
      expect(iso(`${date} 00:59`)).toBe(`${date}T00:59:00+03:00`);
      expect(zonedToEpoch(`${date} 02:00`, J)).toBe(change + HOUR);
      expect(iso(`${date} 02:00`)).toBe(`${date}T02:00:00+02:00`);
    });

    it('formats both passes of the repeated hour with their own offset', () => {
      expect(formatZonedIso(change - 1000, J)).toBe(`${date}T01:59:59+03:00`);
      expect(formatZonedIso(change, J)).toBe(`${date}T01:00:00+02:00`);
      expect(formatZonedIso(change + HOUR / 2, J)).toBe(`${date}T01:30:00+02:00`);
      // Both passes round trip through their ISO text.
      expect(Date.parse(formatZonedIso(change - HOUR / 2, J))).toBe(change - HOUR / 2);
      expect(Date.parse(formatZonedIso(change + HOUR / 2, J))).toBe(change + HOUR / 2);
    });

    it('runs 25 hours from midnight to midnight', () => {
      const next = addDaysToLocalDate(date, 1);
      expect(startOfZonedDay(next, J) - startOfZonedDay(date, J)).toBe(25 * HOUR);
    });
  });

  it('runs 23 hours on the spring-forward day', () => {
    expect(startOfZonedDay('2027-03-27', J) - startOfZonedDay('2027-03-26', J)).toBe(23 * HOUR);
  });

  it('round trips every quarter hour of the change weeks', () => {
    for (const first of ['2027-03-22', '2026-10-21', '2027-10-27']) {
      const start = startOfZonedDay(first, J);
      for (let t = start; t < start + 8 * 24 * HOUR; t += HOUR / 4) {
        const text = formatZonedIso(t, J);
        expect(Date.parse(text)).toBe(t);
        expect(text.slice(0, 10)).toBe(zonedDate(t, J));
        // Wall text back to the instant: exact except for the second pass of a repeated hour.
        const back = zonedToEpoch(formatZonedLocal(t, J), J);
        expect(back === t || back === t - HOUR).toBe(true);
      }
    }
  });
});

describe('other zones', () => {
  it('handles a half-hour offset (Asia/Kolkata, +05:30, no daylight saving)', () => {
    expect(zonedToEpoch('2027-03-26 09:00', 'Asia/Kolkata')).toBe(
      Date.parse('2027-03-26T03:30:00Z'),
    );
    expect(iso('2027-03-26 09:00', 'Asia/Kolkata')).toBe('2027-03-26T09:00:00+05:30');
    expect(zonedDate(Date.parse('2027-03-25T18:29:00Z'), 'Asia/Kolkata')).toBe('2027-03-25');
    expect(zonedDate(Date.parse('2027-03-25T18:30:00Z'), 'Asia/Kolkata')).toBe('2027-03-26');
  });

  it('handles the southern hemisphere (Australia/Sydney)', () => {
    // Summer time ends 2027-04-04 03:00 → 02:00 (+11:00 → +10:00).
    expect(iso('2027-04-04 02:30', 'Australia/Sydney')).toBe('2027-04-04T02:30:00+11:00');
    expect(iso('2027-04-04 03:00', 'Australia/Sydney')).toBe('2027-04-04T03:00:00+10:00');
    // Summer time starts 2026-10-04 02:00 → 03:00 (+10:00 → +11:00).
    expect(iso('2026-10-04 01:59', 'Australia/Sydney')).toBe('2026-10-04T01:59:00+10:00');
    expect(iso('2026-10-04 02:30', 'Australia/Sydney')).toBe('2026-10-04T03:30:00+11:00');
    expect(iso('2027-01-15 09:00', 'Australia/Sydney')).toBe('2027-01-15T09:00:00+11:00');
    expect(iso('2027-07-15 09:00', 'Australia/Sydney')).toBe('2027-07-15T09:00:00+10:00');
  });

  it('handles America/New_York (−05:00 / −04:00)', () => {
    expect(iso('2027-03-14 02:30', 'America/New_York')).toBe('2027-03-14T03:30:00-04:00');
    expect(iso('2026-11-01 01:30', 'America/New_York')).toBe('2026-11-01T01:30:00-04:00');
    expect(iso('2026-11-01 02:00', 'America/New_York')).toBe('2026-11-01T02:00:00-05:00');
  });

  it('handles UTC', () => {
    expect(zonedToEpoch('2027-03-26 09:00', 'UTC')).toBe(Date.parse('2027-03-26T09:00:00Z'));
    expect(formatZonedIso(Date.parse('2027-03-26T09:00:00Z'), 'UTC')).toBe(
      '2027-03-26T09:00:00+00:00',
    );
    expect(zoneOffsetMs(0, 'UTC')).toBe(0);
  });

  it('starts a day whose midnight is skipped at the end of the gap (America/Santiago)', () => {
    // Chile moved its clocks from 24:00 to 01:00 on 2022-09-11.
    expect(
      formatZonedIso(startOfZonedDay('2022-09-11', 'America/Santiago'), 'America/Santiago'),
    ).toBe('2022-09-11T01:00:00-03:00');
  });

  it('formats milliseconds only when there are some', () => {
    expect(formatZonedIso(Date.parse('2027-01-01T10:00:00.250Z'), J)).toBe(
      '2027-01-01T12:00:00.250+02:00',
    );
  });
});

describe('input checks', () => {
  it('refuses malformed local date-times', () => {
    for (const bad of ['2027-02-30 09:00', '2027-03-26 24:00', '2027-03-26', '26/03/2027 09:00']) {
      expect(() => zonedToEpoch(bad, J)).toThrow(RangeError);
    }
    expect(zonedToEpoch('2027-03-26T09:00', J)).toBe(zonedToEpoch('2027-03-26 09:00', J));
  });

  it('refuses an unknown zone', () => {
    expect(() => zonedToEpoch('2027-03-26 09:00', 'Mars/Olympus')).toThrow(RangeError);
  });

  it('knows which time zones are valid', () => {
    for (const zone of ['Asia/Jerusalem', 'UTC', 'America/New_York', 'Asia/Kolkata', 'Etc/GMT-3']) {
      expect(isValidTimeZone(zone)).toBe(true);
    }
    for (const zone of ['', 'Mars/Olympus', '+03:00', '-05:00', 'Jerusalem', 'IST+2']) {
      expect(isValidTimeZone(zone)).toBe(false);
    }
  });
});

describe('calendar dates', () => {
  it('adds days across months, years and leap days', () => {
    expect(addDaysToLocalDate('2027-03-31', 1)).toBe('2027-04-01');
    expect(addDaysToLocalDate('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDaysToLocalDate('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDaysToLocalDate('2027-03-01', -1)).toBe('2027-02-28');
    expect(addDaysToLocalDate('2027-03-26', 0)).toBe('2027-03-26');
  });

  it('knows the week day (0 = Sunday)', () => {
    expect(weekDayOfLocalDate('2027-03-26')).toBe(5); // Friday
    expect(weekDayOfLocalDate('2026-10-25')).toBe(0); // Sunday
    expect(weekDayOfLocalDate('2027-10-31')).toBe(0); // Sunday
    expect(weekDayOfLocalDate('1969-12-31')).toBe(3); // Wednesday, before day 0
  });

  it('converts day numbers both ways and refuses dates that do not exist', () => {
    expect(localDateToDayNumber('1970-01-01')).toBe(0);
    expect(dayNumberToLocalDate(localDateToDayNumber('2027-03-26'))).toBe('2027-03-26');
    expect(localDateToDayNumber('2027-02-29')).toBeNaN();
    expect(localDateToDayNumber('2027-3-26')).toBeNaN();
  });
});
