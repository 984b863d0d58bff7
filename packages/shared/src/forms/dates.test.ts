import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ageOn,
  calendarDateOf,
  compareCalendarDates,
  formatDayMonthYear,
  isLeapYear,
  normaliseDate,
  parseDayMonthYear,
} from './dates.js';
import { addDays, calendarDate, dmy } from './testing.js';

const today = { year: 2026, month: 11, day: 21 };

/** Validity by the platform's calendar: the date survives a round trip through Date. */
function platformValid(year: number, month: number, day: number): boolean {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

describe('isLeapYear', () => {
  it('follows the Gregorian rule', () => {
    expect([2000, 2024, 1996, 2400].map(isLeapYear)).toEqual([true, true, true, true]);
    expect([1900, 2023, 2100, 2026].map(isLeapYear)).toEqual([false, false, false, false]);
  });
});

describe('parseDayMonthYear', () => {
  it('agrees with the platform calendar on every DD/MM/YYYY', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        (year, month, day) => {
          const text = `${String(day).padStart(2, '0')}/${String(month).padStart(2, '0')}/${year}`;
          const parsed = parseDayMonthYear(text);
          return platformValid(year, month, day) && month >= 1 && month <= 12
            ? parsed?.year === year && parsed.month === month && parsed.day === day
            : parsed === null;
        },
      ),
    );
  });

  it('honours leap years', () => {
    expect(parseDayMonthYear('29/02/2024')).toEqual({ year: 2024, month: 2, day: 29 });
    expect(parseDayMonthYear('29/02/2000')).not.toBeNull();
    expect(parseDayMonthYear('29/02/2023')).toBeNull();
    expect(parseDayMonthYear('29/02/1900')).toBeNull();
    expect(parseDayMonthYear('31/04/2024')).toBeNull();
  });

  it('wants exactly DD/MM/YYYY', () => {
    for (const text of [
      '1/2/2024',
      '01/02/24',
      '01.02.2024',
      '01/02/2024 ',
      '2024/02/01',
      '00/01/2024',
      '01/13/2024',
      '01/01/0000',
      '',
    ]) {
      expect(parseDayMonthYear(text), text).toBeNull();
    }
  });

  it('round-trips with formatDayMonthYear', () => {
    fc.assert(
      fc.property(
        calendarDate(1000, 9999),
        (d) =>
          compareCalendarDates(
            parseDayMonthYear(formatDayMonthYear(d)) ?? { year: 0, month: 0, day: 0 },
            d,
          ) === 0,
      ),
    );
  });
});

describe('normaliseDate', () => {
  it('turns dots and dashes into slashes', () => {
    expect(normaliseDate('01.02.2024', today)).toBe('01/02/2024');
    expect(normaliseDate('01-02-2024', today)).toBe('01/02/2024');
    expect(normaliseDate('01.02-2024', today)).toBe('01/02/2024');
  });

  it('expands a 2-digit year: up to this year → 20yy, later → 19yy', () => {
    expect(normaliseDate('01/02/26', today)).toBe('01/02/2026');
    expect(normaliseDate('01.02.00', today)).toBe('01/02/2000');
    expect(normaliseDate('01-02-27', today)).toBe('01/02/1927');
    expect(normaliseDate('01/02/99', today)).toBe('01/02/1999');
    expect(normaliseDate('01/02/99', { year: 2100, month: 1, day: 1 })).toBe('01/02/2099');
  });

  it('never moves a 2-digit year into a later year than today, nor more than 100 years back', () => {
    fc.assert(
      fc.property(calendarDate(), fc.integer({ min: 0, max: 99 }), (now, yy) => {
        const text = normaliseDate(`15.06.${String(yy).padStart(2, '0')}`, now);
        const year = Number(text.slice(6));
        return text.length === 10 && year % 100 === yy && year <= now.year && year > now.year - 100;
      }),
    );
  });

  it('leaves other lengths alone except for separators', () => {
    expect(normaliseDate('1.2.24', today)).toBe('1/2/24');
    expect(normaliseDate('1/2/2024', today)).toBe('1/2/2024');
    expect(normaliseDate('hello', today)).toBe('hello');
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[\d./-]{0,12}$/), calendarDate(), (text, now) => {
        const once = normaliseDate(text, now);
        return normaliseDate(once, now) === once;
      }),
    );
  });

  it('reads every date written with dots, dashes or slashes as the same date', () => {
    fc.assert(
      fc.property(calendarDate(1000, 9999), fc.constantFrom('.', '-', '/'), (d, sep) => {
        const text = dmy(d).replaceAll('/', sep);
        return normaliseDate(text, today) === dmy(d);
      }),
    );
  });
});

describe('ageOn', () => {
  it('goes up on the birthday itself, not the day before', () => {
    fc.assert(
      fc.property(calendarDate(1900, 2050), fc.integer({ min: 0, max: 130 }), (birth, years) => {
        if (birth.month === 2 && birth.day === 29) return true;
        const birthday = { ...birth, year: birth.year + years };
        return (
          ageOn(birth, birthday) === years && ageOn(birth, addDays(birthday, -1)) === years - 1
        );
      }),
    );
  });

  it('gives someone born on 29 February their birthday on 1 March in other years', () => {
    const birth = { year: 2000, month: 2, day: 29 };
    expect(ageOn(birth, { year: 2001, month: 2, day: 28 })).toBe(0);
    expect(ageOn(birth, { year: 2001, month: 3, day: 1 })).toBe(1);
    expect(ageOn(birth, { year: 2004, month: 2, day: 28 })).toBe(3);
    expect(ageOn(birth, { year: 2004, month: 2, day: 29 })).toBe(4);
    expect(ageOn(birth, { year: 2018, month: 2, day: 28 })).toBe(17);
    expect(ageOn(birth, { year: 2018, month: 3, day: 1 })).toBe(18);
  });

  it('never decreases as days pass', () => {
    fc.assert(
      fc.property(
        calendarDate(),
        calendarDate(),
        (birth, now) => ageOn(birth, addDays(now, 1)) >= ageOn(birth, now),
      ),
    );
  });

  it('is 0 on the day of birth and negative before it', () => {
    fc.assert(
      fc.property(
        calendarDate(),
        (birth) => ageOn(birth, birth) === 0 && ageOn(birth, addDays(birth, -1)) === -1,
      ),
    );
  });
});

describe('calendarDateOf', () => {
  it('reads the date in Israel, not UTC', () => {
    const lateUtc = new Date('2026-03-10T22:30:00Z');
    expect(calendarDateOf(lateUtc)).toEqual({ year: 2026, month: 3, day: 11 });
    expect(calendarDateOf(lateUtc, 'UTC')).toEqual({ year: 2026, month: 3, day: 10 });
  });
});
