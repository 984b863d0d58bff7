import { describe, expect, it } from 'vitest';
import {
  cardLast4,
  checkCallback,
  providerFieldsOf,
  resultsQueryOf,
  withoutCardData,
} from './provider-fields.js';

const request = {
  terminal: 'clinicterm',
  chargeRef: 'ref_of_this_request',
  amountAgorot: 125_050,
  maxPayments: 3,
  status: 'pending',
};
const single = {
  supplier: 'clinicterm',
  sum: '1250.50',
  currency: '1',
  cred_type: '1',
  marpe_ref: request.chargeRef,
};
const inThree = { ...single, cred_type: '8', npay: '2', fpay: '416.84', spay: '416.83' };

describe('providerFieldsOf', () => {
  it('keeps text, writes numbers as text, takes a repeated key’s last value', () => {
    expect(
      providerFieldsOf({
        Response: '000',
        sum: 1250.5,
        ok: true,
        npay: ['1', '2'],
        nested: {},
        x: null,
      }),
    ).toEqual({ Response: '000', sum: '1250.5', ok: 'true', npay: '2' });
    expect(providerFieldsOf(undefined)).toEqual({});
    expect(providerFieldsOf(['a'])).toEqual({});
    expect(providerFieldsOf({ remarks: '  דנה  ' })).toEqual({ remarks: 'דנה' });
  });
});

describe('card data', () => {
  it('drops card fields by name and anything holding 12 or more digits', () => {
    expect(
      withoutCardData({
        Response: '000',
        CCNO: '4321',
        expmonth: '12',
        expyear: '30',
        mycvv: '123',
        myid: '039845128',
        TranzilaTK: 'x',
        cardnum: '4580',
        memo: '4580-1234-1234-1234',
        spaced: '4580 1234 1234',
        index: '1790000000123',
        other: '1790000000123',
        ConfirmationCode: '0123456',
      }),
    ).toEqual({ Response: '000', index: '1790000000123', ConfirmationCode: '0123456' });
  });

  it('reads the last 4 digits of ccno, plain or masked', () => {
    expect(cardLast4({ ccno: '4321' })).toBe('4321');
    expect(cardLast4({ ccno: '458000******0006' })).toBe('0006');
    expect(cardLast4({ ccno: '12' })).toBeNull();
    expect(cardLast4({})).toBeNull();
  });

  it('builds the result page’s query, Response first, without card data', () => {
    expect(resultsQueryOf({ index: '7', ccno: '4321', Response: '000', note: 'a&b=c' })).toBe(
      'Response=000&index=7&note=a%26b%3Dc',
    );
    expect(resultsQueryOf({})).toBe('');
  });
});

describe('checkCallback', () => {
  it('accepts a single payment and the spec’s split into instalments', () => {
    expect(checkCallback(request, single)).toMatchObject({
      accepted: true,
      reasons: [],
      amountAgorot: 125_050,
      payments: 1,
    });
    expect(
      checkCallback(request, {
        supplier: 'CLINICTERM',
        sum: '1250.5',
        marpe_ref: request.chargeRef,
      }).accepted,
    ).toBe(true);
    expect(checkCallback(request, inThree)).toMatchObject({
      accepted: true,
      credType: '8',
      payments: 3,
      firstPaymentAgorot: 41_684,
      laterPaymentAgorot: 41_683,
    });
    expect(
      checkCallback(
        { ...request, maxPayments: 2 },
        { ...inThree, npay: '1', fpay: '625.25', spay: '625.25' },
      ).accepted,
    ).toBe(true);
  });

  it.each([
    [{ ...single, supplier: 'other' }, 'terminal_mismatch'],
    [{ ...single, supplier: undefined }, 'terminal_mismatch'],
    [{ ...single, sum: '1250.51' }, 'sum_mismatch'],
    [{ ...single, sum: 'abc' }, 'sum_mismatch'],
    [{ ...single, sum: '99999999999' }, 'sum_mismatch'],
    [{ ...single, currency: '2' }, 'currency_mismatch'],
    [{ ...single, cred_type: '6' }, 'cred_type_not_allowed'],
    [{ ...single, npay: '1' }, 'instalments_mismatch'],
    [{ ...inThree, npay: '0' }, 'instalments_mismatch'],
    [{ ...inThree, npay: 'x' }, 'instalments_mismatch'],
    [{ ...inThree, fpay: '416.83', spay: '416.835' }, 'instalments_mismatch'],
    [{ ...inThree, fpay: '0.50', spay: '625.00' }, 'instalments_mismatch'],
    [{ ...inThree, npay: '3', fpay: '312.64', spay: '312.62' }, 'too_many_payments'],
    [{ ...single, marpe_ref: 'another-request' }, 'reference_mismatch'],
    [{ ...single, marpe_ref: '' }, 'reference_mismatch'],
    [{ ...single, marpe_ref: undefined }, 'reference_missing'],
    [{ ...inThree, marpe_ref: undefined }, 'reference_missing'],
  ])('refuses %j: %s', (fields, reason) => {
    const clean = Object.fromEntries(
      Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined),
    );
    const verdict = checkCallback(request, clean);
    expect(verdict.accepted).toBe(false);
    expect(verdict.reasons).toContain(reason);
  });

  it('accepts the request’s own reference only: a charge without one is no match', () => {
    expect(checkCallback(request, single).accepted).toBe(true);
    const unreferenced: Record<string, string> = { ...single };
    delete unreferenced.marpe_ref;
    expect(checkCallback(request, unreferenced)).toMatchObject({
      accepted: false,
      reasons: ['reference_missing'],
    });
  });

  it('stores sums that do not fit as null', () => {
    expect(
      checkCallback(request, { ...inThree, fpay: '999999999.99' }).firstPaymentAgorot,
    ).toBeNull();
  });

  it('refuses any callback for a cancelled request', () => {
    expect(checkCallback({ ...request, status: 'cancelled' }, single).reasons).toEqual([
      'request_cancelled',
    ]);
  });
});
