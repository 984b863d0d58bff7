import { describeResponseCode } from '@marpe/shared/rules';
import { describe, expect, it } from 'vitest';
import en from '../../app/i18n/en.json';
import he from '../../app/i18n/he.json';
import { responseCodeKey } from './response-description';

const has = (texts: typeof he) => (key: string) =>
  key.replace(/^payment\.responseCode\./, '') in texts.payment.responseCode;

/** Every code docs/product/payments.md#response-codes names, and a few of its 100–180 group. */
const specCodes = [
  ...Object.keys(he.payment.responseCode).filter((key) => /^\d{3}$/.test(key)),
  '100',
  '140',
  '180',
];

describe('provider response code descriptions', () => {
  it.each(specCodes)('%s: the Hebrew text is the product’s, and English has one', (code) => {
    const key = responseCodeKey(code, has(he));
    expect(key).not.toBeNull();
    if (key === null) return;
    expect(he.payment.responseCode[key]).toBe(describeResponseCode(code));
    expect(en.payment.responseCode[key]).toMatch(/^[\w\d ,/()-]+$/);
  });

  it('an unknown code has no description', () => {
    for (const code of ['999', '', '181', 'abc']) expect(responseCodeKey(code, has(he))).toBeNull();
  });

  it('a known code without a text of its own falls back to the generic one', () => {
    expect(responseCodeKey('036', () => false)).toBe('other');
    expect(responseCodeKey('150', () => false)).toBe('restricted');
  });
});
