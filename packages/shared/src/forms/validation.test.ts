import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ValidationKind } from './schema.js';
import { addDays, calendarDate, dmy } from './testing.js';
import { isEmptyValue, validateField, validators } from './validation.js';

const today = { year: 2026, month: 11, day: 21 };
const context = { today };
const check = (kind: ValidationKind, value: string | boolean | undefined, now = today): boolean =>
  validators[kind](value, { today: now });

describe('required', () => {
  it('wants non-blank text, a ticked checkbox or a signature', () => {
    expect(check('required', 'x')).toBe(true);
    expect(check('required', true)).toBe(true);
    expect(check('required', 'data:image/png;base64,AAAA')).toBe(true);
    for (const value of ['', '   ', false, undefined]) expect(check('required', value)).toBe(false);
  });

  it('agrees with isEmptyValue', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.boolean()),
        (v) => check('required', v) === !isEmptyValue(v),
      ),
    );
  });
});

describe('emailFormat', () => {
  it('takes the standard pattern', () => {
    for (const value of [
      'a@b.co',
      'dana.cohen+clinic@mail.example.org.il',
      'x_y-z@sub.domain.com',
    ]) {
      expect(check('emailFormat', value), value).toBe(true);
    }
    for (const value of [
      'a@b',
      'a b@c.com',
      '@c.com',
      'a@.com',
      'a@@b.com',
      'a..b@c.com',
      'דנה@example.com',
      true,
    ]) {
      expect(check('emailFormat', value), String(value)).toBe(false);
    }
  });

  it('accepts generated addresses', () => {
    fc.assert(
      fc.property(
        fc
          .stringMatching(/^[a-z0-9]([a-z0-9._+-]{0,10}[a-z0-9])?$/)
          .filter((s) => !s.includes('..')),
        fc.stringMatching(/^[a-z0-9]{1,10}$/),
        fc.stringMatching(/^[a-z]{2,6}$/),
        (local, domain, tld) => check('emailFormat', `${local}@${domain}.${tld}`),
      ),
    );
  });
});

describe('phoneFormat', () => {
  it('starts with 0 and has 9 or 10 digits once dashes are removed', () => {
    for (const value of [
      '0501234567',
      '050-123-4567',
      '03-5551234',
      '035551234',
      '0-5-0-1-2-3-4-5-6-7',
    ]) {
      expect(check('phoneFormat', value), value).toBe(true);
    }
    for (const value of [
      '501234567',
      '05012345',
      '05012345678',
      '050 1234567',
      '+972501234567',
      '050-12a4567',
      '',
    ]) {
      expect(check('phoneFormat', value), value).toBe(false);
    }
  });

  it('matches its definition on any digits-and-dashes text', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9-]{0,14}$/), (value) => {
        const digits = value.replaceAll('-', '');
        const expected = digits.startsWith('0') && digits.length >= 9 && digits.length <= 10;
        return check('phoneFormat', value) === expected;
      }),
    );
  });
});

describe('idFormat', () => {
  it('is 7 to 9 digits', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{0,12}$/),
        (value) => check('idFormat', value) === (value.length >= 7 && value.length <= 9),
      ),
    );
    for (const value of ['12345-67', '1234567a', ' 1234567', true])
      expect(check('idFormat', value)).toBe(false);
  });
});

describe('dateFormat', () => {
  it('takes a real date written with slashes, dots or dashes, and 2-digit years', () => {
    for (const value of [
      '29/02/2024',
      '29.02.2024',
      '29-02-2024',
      '01/02/99',
      '01.02.03',
      '31/12/2030',
    ]) {
      expect(check('dateFormat', value), value).toBe(true);
    }
    for (const value of [
      '29/02/2023',
      '31/04/2024',
      '1/2/2024',
      '01/02/024',
      '2024-02-01',
      '32/01/2024',
      'abc',
      true,
    ]) {
      expect(check('dateFormat', value), String(value)).toBe(false);
    }
  });

  it('takes every calendar date in every separator', () => {
    fc.assert(
      fc.property(calendarDate(1000, 9999), fc.constantFrom('/', '.', '-'), (d, sep) =>
        check('dateFormat', dmy(d).replaceAll('/', sep)),
      ),
    );
  });
});

describe('birthDateFormat', () => {
  it('refuses today and the future, takes yesterday', () => {
    expect(check('birthDateFormat', '21/11/2026')).toBe(false);
    expect(check('birthDateFormat', '22/11/2026')).toBe(false);
    expect(check('birthDateFormat', '20/11/2026')).toBe(true);
    expect(check('birthDateFormat', '20.11.26')).toBe(true);
  });

  it('takes up to 120 whole years: the day before the 121st birthday, not the birthday', () => {
    expect(check('birthDateFormat', '22/11/1905')).toBe(true);
    expect(check('birthDateFormat', '21/11/1906')).toBe(true);
    expect(check('birthDateFormat', '21/11/1905')).toBe(false);
    expect(check('birthDateFormat', '01/01/1800')).toBe(false);
  });

  it('handles 29 February births at the 120-year edge', () => {
    const birth = '29/02/1904';
    expect(check('birthDateFormat', birth, { year: 2025, month: 2, day: 28 })).toBe(true);
    expect(check('birthDateFormat', birth, { year: 2025, month: 3, day: 1 })).toBe(false);
    expect(check('birthDateFormat', birth, { year: 2024, month: 2, day: 29 })).toBe(true);
    expect(check('birthDateFormat', '29/02/2023')).toBe(false);
  });

  it('takes exactly the dates from 121 years ago plus a day up to yesterday', () => {
    fc.assert(
      fc.property(calendarDate(1950, 2100), fc.integer({ min: -2, max: 45000 }), (now, daysAgo) => {
        const birth = addDays(now, -daysAgo);
        const limit = { ...now, year: now.year - 121 };
        const tooOld =
          birth.year < limit.year ||
          (birth.year === limit.year &&
            (birth.month < limit.month || (birth.month === limit.month && birth.day <= limit.day)));
        const expected = daysAgo > 0 && !tooOld;
        return check('birthDateFormat', dmy(birth), now) === expected;
      }),
    );
  });
});

describe('validateField', () => {
  it('returns the first failing kind in the listed order', () => {
    expect(validateField({ validations: ['required', 'idFormat'] }, '12', context)).toBe(
      'idFormat',
    );
    expect(validateField({ validations: ['phoneFormat', 'idFormat'] }, 'x', context)).toBe(
      'phoneFormat',
    );
    expect(validateField({ validations: ['idFormat', 'phoneFormat'] }, 'x', context)).toBe(
      'idFormat',
    );
    expect(validateField({ validations: ['required', 'idFormat'] }, '1234567', context)).toBeNull();
    expect(validateField({ validations: [] }, 'anything', context)).toBeNull();
  });

  it('fails only required on an empty value; without required an empty value passes every format', () => {
    const formats = fc.subarray([
      'emailFormat',
      'phoneFormat',
      'dateFormat',
      'idFormat',
      'birthDateFormat',
    ] as ValidationKind[]);
    fc.assert(
      fc.property(
        formats,
        fc.constantFrom('', '  ', undefined, false),
        (kinds, empty) =>
          validateField({ validations: kinds }, empty, context) === null &&
          validateField({ validations: [...kinds, 'required'] }, empty, context) === 'required',
      ),
    );
  });
});
