import { describe, expect, it } from 'vitest';
import { UsageError } from './args.js';
import { parsePaymentLinkArgs, parseShekels } from './payment-link-args.js';

describe('parseShekels', () => {
  it.each([
    ['1250.50', 125_050],
    ['1250.5', 125_050],
    ['1,250.50', 125_050],
    ['1250', 125_000],
    ['0.01', 1],
    ['0.29', 29],
    ['1000000', 100_000_000],
    [' 19.99 ', 1999],
  ])('reads %s as %i agorot', (text, agorot) => {
    expect(parseShekels(text)).toBe(agorot);
  });

  it.each(['', '12.345', '1.', '.5', '-1', '1e3', '12,34', '1,2345.00', 'abc', '0x10'])(
    'refuses %j',
    (text) => {
      expect(parseShekels(text)).toBeNull();
    },
  );
});

describe('payment-link arguments', () => {
  it('reads every option', () => {
    expect(
      parsePaymentLinkArgs([
        '--clinic',
        '3',
        '--amount=1250.50',
        '--payments',
        '3',
        '--terminal',
        'clinicterm',
        '--patient-id',
        '039845128',
        '--remarks',
        'דנה לוי',
        '--email=dana@example.com',
        '--description',
        'כתר',
        '--purpose',
        'כתר – שן 14',
        '--days',
        '7',
      ]),
    ).toEqual({
      clinicId: 3,
      amountAgorot: 125_050,
      maxPayments: 3,
      terminal: 'clinicterm',
      patientIdNumber: '039845128',
      patientNameRemarks: 'דנה לוי',
      patientEmail: 'dana@example.com',
      description: 'כתר',
      purpose: 'כתר – שן 14',
      days: 7,
    });
  });

  it('defaults to one payment for 30 days on the clinic’s terminal', () => {
    expect(parsePaymentLinkArgs(['--clinic', '1', '--amount', '99'])).toEqual({
      clinicId: 1,
      amountAgorot: 9900,
      maxPayments: 1,
      days: 30,
    });
  });

  it.each([
    [[]],
    [['--clinic', '1']],
    [['--amount', '10']],
    [['--clinic', '1', '--amount', '0']],
    [['--clinic', '1', '--amount', '0.001']],
    [['--clinic', '1', '--amount', '1000000.01']],
    [['--clinic', '1', '--amount', 'ten']],
    [['--clinic', '1', '--amount']],
    [['--clinic', '1', '--amount', '10', '--payments', '37']],
    [['--clinic', '1', '--amount', '10', '--payments', '0']],
    [['--clinic', '1', '--amount', '10', '--days', '366']],
    [['--clinic', '1', '--amount', '10', '--terminal']],
    [['--clinic', '1', '--amount', '10', '--remarks', '--email', 'a@b.co']],
    [['--clinic', '1', '--amount', '10', '--bogus']],
  ])('refuses %j', (args) => {
    expect(() => parsePaymentLinkArgs(args)).toThrow(UsageError);
  });
});
