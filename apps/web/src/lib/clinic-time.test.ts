import { describe, expect, it } from 'vitest';
import {
  addCalendarDays,
  compactUtc,
  formatClinicTime,
  shortDate,
  spokenDate,
  spokenDateTime,
  weekdayName,
} from './clinic-time';

describe('formatClinicTime', () => {
  it("reads an instant on the clinic's clock, summer and winter", () => {
    // Israel: UTC+3 in summer, UTC+2 in winter; the test's own zone plays no part.
    expect(formatClinicTime('2026-07-01T21:30:00Z', 'Asia/Jerusalem', 'DD.MM.YYYY HH:mm')).toBe(
      '02.07.2026 00:30',
    );
    expect(formatClinicTime('2026-01-15T22:05:00Z', 'Asia/Jerusalem', 'DD.MM.YYYY')).toBe(
      '16.01.2026',
    );
    expect(formatClinicTime('2026-01-15T22:05:00Z', 'Asia/Jerusalem', 'HH:mm')).toBe('00:05');
    expect(formatClinicTime('2026-01-15T22:05:00Z', 'America/New_York', 'YYYY-MM-DD')).toBe(
      '2026-01-15',
    );
    expect(formatClinicTime('2026-01-15T22:05:00Z', 'America/New_York', 'DD.MM.YYYY')).toBe(
      '15.01.2026',
    );
  });

  it('writes the one date patients see as DD.MM.YYYY, day and month zero-padded', () => {
    expect(formatClinicTime('2026-12-01T06:00:00Z', 'Asia/Jerusalem', 'DD.MM.YYYY HH:mm')).toBe(
      '01.12.2026 08:00',
    );
    expect(shortDate('2026-12-01')).toBe('01.12.2026');
    expect(shortDate('2027-03-09')).toBe('09.03.2027');
  });

  it('takes an instant with any offset', () => {
    expect(formatClinicTime('2026-11-27T09:00:00+02:00', 'Asia/Jerusalem', 'HH:mm')).toBe('09:00');
  });
});

describe('compactUtc', () => {
  it('writes YYYYMMDDTHHmmssZ in UTC, whatever offset the instant came with', () => {
    expect(compactUtc('2026-11-27T00:44:24.123Z')).toBe('20261127T004424Z');
    expect(compactUtc('2026-11-27T02:44:24+02:00')).toBe('20261127T004424Z');
  });
});

describe('addCalendarDays', () => {
  it('steps calendar days across months, years and leap days', () => {
    expect(addCalendarDays('2026-03-26', 1)).toBe('2026-03-27');
    expect(addCalendarDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addCalendarDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addCalendarDays('2026-11-27', 13)).toBe('2026-12-10');
    expect(addCalendarDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});

describe('spokenDate and spokenDateTime', () => {
  it('names the weekday, day, month and year as a person says them', () => {
    expect(spokenDate('2026-12-01', 'he')).toBe('יום שלישי, 1 בדצמבר 2026');
    expect(spokenDate('2026-12-01', 'en')).toBe('Tuesday, 1 December 2026');
  });

  it('names the weekday alone, in either language', () => {
    expect(weekdayName('2026-12-01', 'he')).toBe('יום שלישי');
    expect(weekdayName('2026-12-01', 'en')).toBe('Tuesday');
    expect(weekdayName('2026-11-29', 'he')).toBe('יום ראשון');
  });

  it("says an instant on the clinic's clock, not the reader's", () => {
    expect(spokenDateTime('2026-11-28T22:30:00Z', 'Asia/Jerusalem', 'he')).toBe(
      'יום ראשון, 29 בנובמבר 2026, בשעה 00:30',
    );
    expect(spokenDateTime('2026-11-29T06:00:00Z', 'Asia/Jerusalem', 'en')).toBe(
      'Sunday, 29 November 2026, at 08:00',
    );
  });
});
