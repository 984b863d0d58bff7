// @vitest-environment node
// The server renders pages where there is no DOM: so does this file.
import type { GetFormResponse } from '@marpe/shared';
import { describe, expect, it } from 'vitest';
import { formFixture } from './features/intake-form/test/form-fixture';
import { prerender } from './prerender';

function formAnswer(ltr = false): GetFormResponse {
  const data = formFixture();
  const [first, ...rest] = data.schema;
  if (!first) throw new Error('no first step');
  data.schema = [{ ...first, is_ltr: ltr }, ...rest];
  return { data, draft: { inputData: { fullName: 'שמור', smoker: true }, stepIndex: 0 } };
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
      const { html } = await prerender('/q/tok', {
        intakeForm: { token: 'tok', data: formAnswer(true) },
      });
      expect(html).toContain('<div dir="ltr">');
      expect(html).toMatch(/<style data-emotion="muiformltr [^"]+">/);
    }
  });
});
