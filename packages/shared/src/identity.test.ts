import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isValidIsraeliId,
  isValidIsraeliMobile,
  israeliMobileToE164,
  normaliseIdNumber,
  normaliseIsraeliMobile,
  withIdCheckDigit,
} from './identity.js';

/** The check digit of an 8-digit base, written independently of the implementation under test. */
function checkDigit(base: string): number {
  let sum = 0;
  [...base].forEach((char, i) => {
    const product = Number(char) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 10) + (product % 10);
  });
  return (10 - (sum % 10)) % 10;
}

const base8 = fc.stringMatching(/^\d{8}$/);
const validId = base8.map((base) => `${base}${checkDigit(base)}`).filter((id) => !/^0+$/.test(id));

describe('withIdCheckDigit', () => {
  it('completes any 8 digits with the independently computed check digit', () => {
    fc.assert(
      fc.property(base8, (base) => withIdCheckDigit(base) === `${base}${checkDigit(base)}`),
    );
    expect(withIdCheckDigit('03984512')).toBe('039845128');
    expect(withIdCheckDigit('00000001')).toBe('000000018');
    expect(withIdCheckDigit('12345678')).toBe('123456782');
  });

  it.each(['1234567', '123456789', '1234567a'])('refuses %j', (base) => {
    expect(() => withIdCheckDigit(base)).toThrow(RangeError);
  });
});

describe('isValidIsraeliId', () => {
  it('accepts known real-format numbers', () => {
    for (const id of ['000000018', '123456782', '18']) {
      expect(isValidIsraeliId(id), id).toBe(true);
    }
  });

  it('accepts every number built by the algorithm', () => {
    fc.assert(fc.property(validId, (id) => isValidIsraeliId(id)));
  });

  it('accepts them without their leading zeros, and normalises back to 9 digits', () => {
    fc.assert(
      fc.property(validId, (id) => {
        const short = id.replace(/^0+/, '');
        return isValidIsraeliId(short) && normaliseIdNumber(short) === id;
      }),
    );
  });

  it('refuses any single-digit change', () => {
    fc.assert(
      fc.property(validId, fc.nat(8), fc.integer({ min: 1, max: 9 }), (id, at, delta) => {
        const digit = (Number(id[at]) + delta) % 10;
        const changed = `${id.slice(0, at)}${digit}${id.slice(at + 1)}`;
        return !isValidIsraeliId(changed);
      }),
    );
  });

  it('refuses all zeros, non-digits, and more than 9 digits', () => {
    for (const id of ['0', '000000000', '', '12345678a', '1234-5678', '0123456782', ' ']) {
      expect(isValidIsraeliId(id), JSON.stringify(id)).toBe(false);
    }
  });
});

describe('normaliseIsraeliMobile', () => {
  const mobile = fc
    .tuple(fc.constantFrom('0', '2', '3', '4', '5', '8', '9'), fc.stringMatching(/^\d{7}$/))
    .map(([prefix, rest]) => `05${prefix}${rest}`);

  it('reads the ways people write a mobile number as the same number', () => {
    fc.assert(
      fc.property(mobile, (phone) => {
        const national = phone.slice(1);
        const written = [
          phone,
          `${phone.slice(0, 3)}-${phone.slice(3)}`,
          `${phone.slice(0, 3)} ${phone.slice(3, 6)} ${phone.slice(6)}`,
          `(${phone.slice(0, 3)}) ${phone.slice(3)}`,
          `+972${national}`,
          `+972-${national.slice(0, 2)}-${national.slice(2)}`,
          `972${national}`,
          `00972${national}`,
          `+972 (0)${national}`,
          `\u200e${phone}\u200f`,
        ];
        return written.every((w) => normaliseIsraeliMobile(w) === phone);
      }),
    );
  });

  it('round-trips through E.164', () => {
    fc.assert(
      fc.property(mobile, (phone) => {
        const e164 = israeliMobileToE164(phone);
        return /^\+9725\d{8}$/.test(e164) && normaliseIsraeliMobile(e164) === phone;
      }),
    );
  });

  it('refuses landlines, short or long numbers, and letters', () => {
    for (const phone of [
      '03-5551234',
      '050123456',
      '05012345678',
      '+97235551234',
      '050-ABC-4567',
      '+1 650 555 1234',
      '',
      '5012345678',
    ]) {
      expect(isValidIsraeliMobile(phone), phone).toBe(false);
    }
  });
});
