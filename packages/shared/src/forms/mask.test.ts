import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyMask, matchesMask } from './mask.js';

describe('applyMask', () => {
  it('formats as typed, inserting literals before the next typed character', () => {
    expect(applyMask('##/##/####', '')).toBe('');
    expect(applyMask('##/##/####', '1')).toBe('1');
    expect(applyMask('##/##/####', '12')).toBe('12');
    expect(applyMask('##/##/####', '123')).toBe('12/3');
    expect(applyMask('##/##/####', '01021990')).toBe('01/02/1990');
    expect(applyMask('##/##/####', '01/02/1990')).toBe('01/02/1990');
    expect(applyMask('##/##/####', '0102199012345')).toBe('01/02/1990');
    expect(applyMask('###-#######', '0501234567')).toBe('050-1234567');
  });

  it('drops characters that do not fit the slot', () => {
    expect(applyMask('####', '1a2b3c4d')).toBe('1234');
    expect(applyMask('@@@', 'a1ב2c')).toBe('abc'.replace('b', 'ב'));
    expect(applyMask('**-**', 'a!1 b2')).toBe('a1-b2');
    expect(applyMask('@#', '#@a1')).toBe('a1');
  });

  it('takes letters of any script for @ and *', () => {
    expect(applyMask('@@@@', 'שלום')).toBe('שלום');
    expect(applyMask('*', 'é')).toBe('é');
  });

  it('yields only text that is a prefix of a full match, and is idempotent', () => {
    const mask = fc.stringMatching(/^[#@*/\- ()A]{0,12}$/);
    fc.assert(
      fc.property(mask, fc.string({ maxLength: 20 }), (m, value) => {
        const out = applyMask(m, value);
        const prefixFits = [...out].every((char, i) => {
          const slot = [...m][i];
          if (slot === '#') return /[0-9]/.test(char);
          if (slot === '@') return /\p{L}/u.test(char);
          if (slot === '*') return /[\p{L}0-9]/u.test(char);
          return char === slot;
        });
        return prefixFits && applyMask(m, out) === out;
      }),
    );
  });

  it('fills a mask completely from enough fitting characters', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{10}$/), (digits) =>
        matchesMask('(###) ###-####', applyMask('(###) ###-####', digits)),
      ),
    );
  });
});

describe('matchesMask', () => {
  it('wants every slot filled and every literal in place', () => {
    expect(matchesMask('##/##/####', '01/02/1990')).toBe(true);
    expect(matchesMask('##/##/####', '01/02/199')).toBe(false);
    expect(matchesMask('##/##/####', '01-02-1990')).toBe(false);
    expect(matchesMask('@@-##', 'אב-12')).toBe(true);
    expect(matchesMask('@@-##', '1b-12')).toBe(false);
    expect(matchesMask('**', 'a1')).toBe(true);
    expect(matchesMask('**', 'a!')).toBe(false);
    expect(matchesMask('', '')).toBe(true);
  });
});
