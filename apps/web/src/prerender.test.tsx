// @vitest-environment node
// The server renders pages where there is no DOM: so does this file.
import type { GetFormResponse, PaymentRequestData } from '@marpe/shared';
import { describe, expect, it } from 'vitest';
import { formFixture } from './features/intake-form/test/form-fixture';
import { paymentRequestFixture } from './features/payment/test/payment-request-fixture';
import { prerender } from './prerender';

function formAnswer(ltr = false): GetFormResponse {
  const data = formFixture();
  const [first, ...rest] = data.schema;
  if (!first) throw new Error('no first step');
  data.schema = [{ ...first, is_ltr: ltr }, ...rest];
  return {
    data,
    draft: { inputData: { fullName: 'שמור', smoker: true }, stepIndex: 0 },
    clinicId: 1,
  };
}

describe('the form page rendered on the server (ADR 021)', () => {
  it('holds the step the link opens on, its answers and its clinic HTML, titled after the step', async () => {
    const { html, title } = await prerender('/q/tok', {
      intakeForm: { token: 'tok', data: formAnswer() },
    });
    expect(title).toBe('שלום דנה');
    expect(html).toMatch(/<h1[^>]*>שלום דנה<\/h1>/);
    expect(html).toMatch(/<input[^>]*name="fullName"[^>]*value="שמור"/);
    expect(html).toMatch(/<input[^>]*type="checkbox"[^>]*name="smoker"[^>]*checked=""/);
    expect(html).toMatch(/<select[^>]*name="packs"/);
    expect(html).toContain('<p>שימו <b>לב</b></p>');
    expect(html).not.toMatch(/<script|onerror|role="progressbar"/);
  });

  it('styles a left-to-right form in every page it renders, not only the first', async () => {
    for (let i = 0; i < 2; i += 1) {
      const { html, styles } = await prerender('/q/tok', {
        intakeForm: { token: 'tok', data: formAnswer(true) },
      });
      expect(html).toContain('<div dir="ltr">');
      expect(styles).toMatch(/<style data-marpe-styles="muiformltr [^"]+">/);
    }
  });

  it("gives the page's style rules for <head>, one element per cache, none left in the markup", async () => {
    const { html, styles } = await prerender('/q/tok', {
      intakeForm: { token: 'tok', data: formAnswer(true) },
    });
    expect(html).not.toContain('<style');
    const caches = [...styles.matchAll(/<style data-marpe-styles="(\S+) /g)].map(([, key]) => key);
    expect(caches).toEqual(['muirtl', 'muiformltr']);
    // CssBaseline's global rules keep emotion's own element, first, which <Global> looks for.
    expect(styles).toMatch(/^<style data-emotion="muirtl-global [^"]+">/);
    // Each rule the markup names is there (`-0` names no rule: a component without styles).
    const names = new Set(
      [...styles.matchAll(/data-marpe-styles="\S+ ([^"]+)"/g)].flatMap(([, list = '']) =>
        list.split(' '),
      ),
    );
    for (const [, name] of html.matchAll(/[" ]mui(?:rtl|formltr)-([\w-]+)/g)) {
      if (name !== '0') expect(names).toContain(name);
    }
  });
});

describe('the payment result page rendered on the server (ADR 025)', () => {
  const request = (status: PaymentRequestData['status']) => paymentRequestFixture({ status });
  const succeeded = `/tranzila/tok?results=${encodeURIComponent('Response=000&index=4')}`;

  it('a confirmed payment: received, titled so, and still', async () => {
    const page = await prerender(succeeded, {
      paymentResult: { token: 'tok', data: request('paid') },
    });
    expect(page.html).toMatch(/<h1[^>]*>התשלום התקבל<\/h1>/);
    expect(page.title).toBe('התשלום התקבל');
    expect(page.live).toBe(false);
  });

  it('a payment being confirmed: processing, and live (the page asks until it is)', async () => {
    for (const status of ['pending', 'verifying'] as const) {
      const page = await prerender(succeeded, {
        paymentResult: { token: 'tok', data: request(status) },
      });
      expect(page.html).toContain('מאשרים את התשלום מול חברת האשראי…');
      expect(page.html).toContain('role="status"');
      expect(page.live).toBe(true);
    }
  });

  it('a link that is not valid: not confirmed, and whom to ask (trying again cannot help)', async () => {
    const page = await prerender(succeeded, { paymentResult: { token: 'tok', data: null } });
    expect(page.html).toMatch(/<h1[^>]*>התשלום לא אושר<\/h1>/);
    expect(page.html).toContain('קישור התשלום כבר אינו בתוקף. לתשלום, פנו למרפאה.');
    expect(page.html).not.toMatch(/<button[^>]*>ניסיון נוסף/);
    expect(page.title).toBe('התשלום לא אושר');
    expect(page.live).toBe(false);
  });

  it('a declined card: the error with its description, whatever the request', async () => {
    const page = await prerender(`/tranzila/tok?results=${encodeURIComponent('Response=033')}`, {
      paymentResult: { token: 'tok', data: request('pending') },
    });
    expect(page.html).toMatch(/<h1[^>]*>שגיאה בתשלום(?:<!-- -->)?: <bdi>כרטיס פגום<\/bdi><\/h1>/);
    expect(page.title).toBe('שגיאה בתשלום');
    expect(page.live).toBe(false);
  });
});
