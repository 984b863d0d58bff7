import { buildCardFrameUrl } from '@marpe/shared';
import { describe, expect, it } from 'vitest';
import {
  parseSandboxCharge,
  renderSandboxPage,
  sandboxCallback,
  sandboxCardLabel,
  sandboxCards,
  sandboxReturnFields,
} from './sandbox-page.js';

const origin = 'https://marpe.example';

function card(response: string) {
  const found = sandboxCards.find((c) => c.response === response);
  if (!found) throw new Error(`no test card for ${response}`);
  return found;
}
const frameFields = (payments: number) =>
  Object.fromEntries(
    new URL(
      buildCardFrameUrl({
        baseUrl: `${origin}/api/sandbox`,
        terminal: 'marpedemo',
        amountAgorot: 125_050,
        payments,
        email: 'dana@example.com',
        patientId: '039845128',
        remarks: 'דנה לוי',
        publicOrigin: origin,
        token: 'tok',
      }),
    ).searchParams,
  );

describe('sandbox test cards', () => {
  it('are told apart by their response code alone', () => {
    for (const card of sandboxCards) {
      const matching = sandboxCards.filter((c) =>
        new RegExp(card.response).test(sandboxCardLabel(c)),
      );
      expect(matching).toEqual([card]);
    }
    expect(sandboxCards.map((c) => c.response)).toEqual(['000', '006', '033', '036', '004']);
    expect(sandboxCardLabel(card('033'))).toBe('4580 3333 3333 3333 – כרטיס פגום (033)');
  });
});

describe('parseSandboxCharge', () => {
  it('reads the frame parameters our page sends', () => {
    const parsed = parseSandboxCharge('marpedemo', frameFields(3), [origin]);
    expect(parsed).toMatchObject({
      ok: true,
      charge: {
        amountAgorot: 125_050,
        credType: '8',
        npay: 2,
        firstAgorot: 41_684,
        laterAgorot: 41_683,
        email: 'dana@example.com',
        notifyPath: '/api/notify-payment/tok',
        successUrl: `${origin}/api/payment-return/tok`,
      },
    });
  });

  it.each([
    ['sum', { sum: '0.00' }],
    ['currency', { currency: '2' }],
    ['cred_type', { cred_type: '6' }],
    ['fpay', { fpay: '416.85' }],
    ['npay', { npay: '40' }],
    ['email', { email: 'nope' }],
    ['success_url_address', { success_url_address: 'https://evil.example/x' }],
    ['notify_url_address', { notify_url_address: `${origin}/api/submit` }],
  ])('refuses a bad %s', (name, change) => {
    const parsed = parseSandboxCharge('marpedemo', { ...frameFields(3), ...change }, [origin]);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? [] : parsed.problems).toContain(name);
  });
});

describe('sandboxCallback', () => {
  it('is the provider’s notify body, and its return carries the result fields only', () => {
    const parsed = parseSandboxCharge('marpedemo', frameFields(3), [origin]);
    if (!parsed.ok) throw new Error('expected a charge');
    const callback = sandboxCallback(parsed.charge, card('000'), '17', '1234567');
    expect(callback).toEqual({
      Response: '000',
      index: '17',
      ConfirmationCode: '1234567',
      sum: '1250.50',
      currency: '1',
      cred_type: '8',
      npay: '2',
      fpay: '416.84',
      spay: '416.83',
      supplier: 'marpedemo',
      ccno: '1111',
      expmonth: '12',
      expyear: '30',
      contact: '039845128',
      email: 'dana@example.com',
      remarks: 'דנה לוי',
    });
    expect(sandboxReturnFields(callback)).toEqual({
      Response: '000',
      index: '17',
      ConfirmationCode: '1234567',
      sum: '1250.50',
      currency: '1',
      cred_type: '8',
      npay: '2',
      fpay: '416.84',
      spay: '416.83',
    });
    const declined = sandboxCallback(parsed.charge, card('006'), '18', '1234567');
    expect(declined).not.toHaveProperty('ConfirmationCode');
    expect(declined.Response).toBe('006');
  });
});

describe('renderSandboxPage', () => {
  it('writes sums as the patient pages do: ₪ first, each sum one unbroken run', () => {
    const parsed = parseSandboxCharge('marpedemo', frameFields(3), [origin]);
    if (!parsed.ok) throw new Error('the charge should parse');
    const html = renderSandboxPage(parsed.charge, '/api/sandbox/marpedemo/iframenew.php');
    for (const sum of ['₪1,250.50', '₪416.84', '₪416.83']) {
      expect(html).toContain(`<bdi dir="ltr" class="sum">${sum}</bdi>`);
    }
    expect(html).toContain('.sum{white-space:nowrap}');
    expect(html).not.toMatch(/\d ₪/);
  });
});
