import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildCardFrameUrl,
  describeResponseCode,
  formatAmount,
  formatProviderSum,
  isReceiptEmail,
  MAX_AMOUNT_AGOROT,
  MAX_PAYMENTS,
  parsePaymentResults,
  parseProviderSum,
  splitInstalments,
  toAgorot,
} from './payments.js';

const amounts = fc.integer({ min: 1, max: MAX_AMOUNT_AGOROT });
const counts = fc.integer({ min: 1, max: MAX_PAYMENTS });

describe('splitInstalments', () => {
  it('splits 1,250.50 in 3 payments as the product says: 416.84 then 2 × 416.83', () => {
    expect(splitInstalments(125_050, 3)).toEqual({
      npay: 2,
      firstAgorot: 41_684,
      laterAgorot: 41_683,
    });
  });

  it('always adds up to the agora, with no negative or fractional part', () => {
    fc.assert(
      fc.property(amounts, counts, (amount, count) => {
        const { npay, firstAgorot, laterAgorot } = splitInstalments(amount, count);
        expect(npay).toBe(count - 1);
        expect(firstAgorot + npay * laterAgorot).toBe(amount);
        expect(Number.isInteger(firstAgorot) && Number.isInteger(laterAgorot)).toBe(true);
        expect(laterAgorot).toBeGreaterThanOrEqual(0);
        // The later payments are the quotient rounded down; the first takes the rest.
        expect(laterAgorot).toBe(Math.floor(amount / count));
        expect(firstAgorot).toBeGreaterThanOrEqual(laterAgorot);
        expect(firstAgorot - laterAgorot).toBeLessThan(count);
      }),
    );
  });

  it('has no more than 2 decimals in any part written for the provider', () => {
    fc.assert(
      fc.property(amounts, counts, (amount, count) => {
        const { firstAgorot, laterAgorot } = splitInstalments(amount, count);
        for (const part of [firstAgorot, laterAgorot]) {
          expect(formatProviderSum(part)).toMatch(/^\d+\.\d{2}$/);
        }
      }),
    );
  });

  it.each([
    [0, 1],
    [-5, 2],
    [1.5, 2],
    [100, 0],
    [100, 1.5],
  ])('refuses amount %s in %s payments', (amount, count) => {
    expect(() => splitInstalments(amount, count)).toThrow(RangeError);
  });
});

describe('amounts', () => {
  it.each([
    [125_050, '1,250.50'],
    [125_000, '1,250'],
    [100, '1'],
    [5, '0.05'],
    [123_456_789, '1,234,567.89'],
    [99_999_900, '999,999'],
  ])('formatAmount(%s) is %s', (agorot, text) => {
    expect(formatAmount(agorot)).toBe(text);
  });

  it('writes no decimals exactly when the sum is whole, else 2', () => {
    fc.assert(
      fc.property(amounts, (agorot) => {
        const text = formatAmount(agorot);
        if (agorot % 100 === 0) expect(text).not.toContain('.');
        else expect(text).toMatch(/\.\d{2}$/);
        expect(Number(text.replaceAll(',', ''))).toBeCloseTo(agorot / 100, 2);
      }),
    );
  });

  it('round-trips agorot through the provider text', () => {
    fc.assert(
      fc.property(amounts, (agorot) => {
        expect(parseProviderSum(formatProviderSum(agorot))).toBe(agorot);
        expect(toAgorot(agorot / 100)).toBe(agorot);
      }),
    );
  });

  it.each([
    ['1250.5', 125_050],
    ['1250', 125_000],
    ['0.05', 5],
  ])('parseProviderSum(%s) is %s', (text, agorot) => {
    expect(parseProviderSum(text)).toBe(agorot);
  });

  it.each(['', '12.345', '1,250.50', '-3', 'abc', '1e3', '.5'])(
    'parseProviderSum refuses %j',
    (text) => {
      expect(parseProviderSum(text)).toBeNull();
    },
  );

  it('refuses shekel numbers finer than an agora', () => {
    expect(toAgorot(12.345)).toBeNull();
    expect(toAgorot(Number.NaN)).toBeNull();
    expect(toAgorot(0.1 + 0.2)).toBe(30);
  });
});

describe('buildCardFrameUrl', () => {
  const input = {
    baseUrl: 'https://direct.tranzila.com/',
    terminal: 'clinic7',
    amountAgorot: 125_050,
    payments: 3,
    email: 'dana@example.com',
    patientId: '039845128',
    remarks: 'דנה לוי',
    publicOrigin: 'https://app.marpe.example',
    token: 'tok_en-1',
  };

  it('carries every parameter of the card frame, with the instalment split', () => {
    const url = new URL(buildCardFrameUrl(input));
    expect(`${url.origin}${url.pathname}`).toBe(
      'https://direct.tranzila.com/clinic7/iframenew.php',
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({
      sum: '1250.50',
      currency: '1',
      cred_type: '8',
      npay: '2',
      fpay: '416.84',
      spay: '416.83',
      lang: 'il',
      nologo: '1',
      trButtonColor: '00BCD4',
      trTextColor: '212121',
      buttonLabel: 'לתשלום',
      contact: '039845128',
      remarks: 'דנה לוי',
      email: 'dana@example.com',
      success_url_address: 'https://app.marpe.example/api/payment-return/tok_en-1',
      fail_url_address: 'https://app.marpe.example/api/payment-return/tok_en-1',
      notify_url_address: 'https://app.marpe.example/api/notify-payment/tok_en-1',
    });
  });

  it('carries the request’s reference when it has one', () => {
    const url = new URL(buildCardFrameUrl({ ...input, chargeRef: 'Ab3_x-9' }));
    expect(url.searchParams.get('marpe_ref')).toBe('Ab3_x-9');
  });

  it('asks for a single payment without instalment fields', () => {
    const url = new URL(buildCardFrameUrl({ ...input, payments: 1 }));
    expect(url.searchParams.get('cred_type')).toBe('1');
    for (const name of ['npay', 'fpay', 'spay']) expect(url.searchParams.has(name)).toBe(false);
  });

  it('points at the sandbox when the base URL says so', () => {
    const url = buildCardFrameUrl({ ...input, baseUrl: 'http://localhost:3000/api/sandbox' });
    expect(url.startsWith('http://localhost:3000/api/sandbox/clinic7/iframenew.php?')).toBe(true);
  });

  it('always has fpay + npay × spay equal to sum', () => {
    fc.assert(
      fc.property(amounts, fc.integer({ min: 2, max: MAX_PAYMENTS }), (agorot, payments) => {
        const params = new URL(buildCardFrameUrl({ ...input, amountAgorot: agorot, payments }))
          .searchParams;
        const part = (name: string) => parseProviderSum(params.get(name) ?? '') ?? Number.NaN;
        expect(part('fpay') + Number(params.get('npay')) * part('spay')).toBe(part('sum'));
      }),
    );
  });
});

describe('describeResponseCode', () => {
  it.each([
    ['000', 'עסקה אושרה'],
    ['006', 'מספר CVV שגוי'],
    ['033', 'כרטיס פגום'],
    ['036', 'פג תוקף הכרטיס'],
    ['058', 'לא הוזנו מספר תעודת זהות ו/או CVV2'],
    ['401', 'מספר התשלומים גבוה מהמותר'],
    ['959', 'התשלום הסתיים ללא הצלחה'],
  ])('%s → %s', (code, text) => {
    expect(describeResponseCode(code)).toBe(text);
  });

  it('describes the 100-180 range as terminal or card restrictions', () => {
    expect(describeResponseCode('100')).not.toBe('');
    expect(describeResponseCode('180')).toBe(describeResponseCode('150'));
    expect(describeResponseCode('181')).toBe('');
  });

  it.each(['', '999', 'abc', '05'])('is empty for unknown code %j', (code) => {
    expect(describeResponseCode(code)).toBe('');
  });
});

describe('parsePaymentResults', () => {
  it('reads the URL-encoded pairs', () => {
    expect(parsePaymentResults('Response=033&index=12&remarks=%D7%93%D7%A0%D7%94')).toEqual({
      Response: '033',
      index: '12',
      remarks: 'דנה',
    });
  });

  it('gives no Response for an empty string', () => {
    expect(parsePaymentResults('').Response).toBeUndefined();
  });
});

describe('isReceiptEmail', () => {
  it.each(['dana@example.com', 'a.b+c@sub.example.co.il'])('accepts %s', (value) => {
    expect(isReceiptEmail(value)).toBe(true);
  });
  it.each(['', 'dana', 'dana@', '@example.com', 'dana@example', 'da na@example.com'])(
    'refuses %j',
    (value) => {
      expect(isReceiptEmail(value)).toBe(false);
    },
  );
});
