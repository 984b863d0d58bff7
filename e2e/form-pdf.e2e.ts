import fs from 'node:fs';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPage, useBrowser } from './support/browser';
import { seedClinicWithKey } from './support/connections';
import { freshDataDir, startServer, type RunningServer } from './support/server';

const browser = useBrowser();
let server: RunningServer;
let dataDir: string;
let apiKey: string;

// A server of its own: the clinic's software makes the form and reads the signed PDF.
beforeAll(async () => {
  dataDir = freshDataDir();
  apiKey = (await seedClinicWithKey(dataDir)).key;
  server = await startServer({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function integration(method: string, path: string, body?: object): Promise<Response> {
  return fetch(`${server.url}/api/integration${path}`, {
    method,
    headers: {
      authorization: `Bearer ${apiKey}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
}

/**
 * Clinic markup a hostile or careless template could hold: text in elements the page drops
 * (controls, a title, SVG, code, comments), entities beyond the common few, lists, a table, an
 * unknown element, links safe and not.
 */
const HOSTILE = [
  '<p>Start of the notice</p>',
  '<p>caf&eacute; &Aacute;ngel &frac12; &copy 2027 &amp;amp; it&rsquo;s &mdash; ok</p>',
  '<title>TITLE-TEXT</title><button>BUTTON-TEXT</button>',
  '<select><option>OPTION-TEXT</option></select><textarea>TEXTAREA-TEXT</textarea>',
  '<svg><text>SVG-TEXT</text></svg><math><mi>MATH-TEXT</mi></math>',
  '<script>window.hostile = 1</script><style>p { color: red }</style><!-- COMMENT-TEXT -->',
  '<noscript>NOSCRIPT-TEXT</noscript><template>TEMPLATE-TEXT</template>',
  '<ul><li>first item</li><li>second item</li></ul><ol><li>numbered</li></ol>',
  '<table><tr><td>cell a</td><td>cell b</td></tr></table>',
  '<marquee>marquee text</marquee> <a href="javascript:alert(1)">bad link</a>',
  ' <a href="https://example.com/">good link</a>',
  '<p>end<br>of   the notice</p>',
].join('');

const DROPPED = ['TITLE', 'BUTTON', 'OPTION', 'TEXTAREA', 'SVG', 'MATH', 'COMMENT', 'NOSCRIPT'];

/** Lines as compared: white space collapsed, list markers (the page draws them, not as text) off. */
const normalise = (lines: string[]) =>
  lines
    .map((line) =>
      line
        .replace(/[\s\u00a0]+/g, ' ')
        .trim()
        .replace(/^(?:•|\d+\.) /, ''),
    )
    .filter((line) => line !== '');

/** The PDF's text, line by line (items sharing a baseline, left to right). */
async function pdfLines(bytes: Uint8Array): Promise<string[]> {
  const pdf = await getDocument({ data: bytes, isEvalSupported: false }).promise;
  const lines: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    const rows = new Map<number, { x: number; str: string }[]>();
    for (const item of content.items) {
      if (!('str' in item)) continue;
      const y = Math.round(item.transform[5] as number);
      rows.set(y, [...(rows.get(y) ?? []), { x: item.transform[4] as number, str: item.str }]);
    }
    for (const y of [...rows.keys()].sort((a, b) => b - a)) {
      const row = (rows.get(y) ?? []).sort((a, b) => a.x - b.x);
      lines.push(row.map((item) => item.str).join(''));
    }
  }
  return lines;
}

describe('the signed form', () => {
  it("prints exactly the text the patient saw of the clinic's markup, hostile markup included", async () => {
    const template = await integration('POST', '/form-templates', {
      name: 'Notice',
      schema: [
        {
          title: 'Notice',
          next_button: 'Send',
          is_ltr: true,
          fields: [
            { name: 'notice', type: 'html', title: HOSTILE },
            { name: 'agree', type: 'checkbox', title: 'I agree', validations: ['required'] },
          ],
        },
      ],
    });
    expect(template.status, await template.clone().text()).toBe(201);
    const templateId = ((await template.json()) as { id: number }).id;
    const made = await integration('POST', '/form-requests', { template_id: templateId });
    expect(made.status).toBe(201);
    const link = (await made.json()) as { id: number; url: string };

    const { context, page } = await newPage(browser());
    await page.goto(`${server.url}${new URL(link.url).pathname}`);
    const shown = page.getByText('Start of the notice', { exact: true }).locator('..');
    await shown.waitFor();
    const pageText = normalise((await shown.innerText()).split('\n'));
    expect(await page.evaluate(() => (window as { hostile?: number }).hostile)).toBeUndefined();
    // The page is the server's HTML until the app takes it over, at the first click or while the
    // patient reads (ADR 025, 033): a click may land just before it, so click until it holds.
    const agree = page.getByRole('checkbox', { name: 'I agree' });
    for (let attempt = 0; attempt < 20 && !(await agree.isChecked()); attempt++) {
      await agree.click();
      await page.waitForTimeout(250);
    }
    expect(await agree.isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL((url) => url.pathname === '/completed');
    await context.close();

    let pdf: Response | null = null;
    for (let attempt = 0; attempt < 50; attempt++) {
      pdf = await integration('GET', `/form-requests/${link.id}/submission.pdf`);
      if (pdf.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(pdf?.status).toBe(200);
    const printed = normalise(
      await pdfLines(new Uint8Array(await (pdf as Response).arrayBuffer())),
    );
    const start = printed.indexOf('Start of the notice');
    expect(start, printed.join('\n')).toBeGreaterThanOrEqual(0);
    expect(printed.slice(start, start + pageText.length)).toEqual(pageText);
    expect(pageText).toEqual([
      'Start of the notice',
      'café Ángel ½ © 2027 &amp; it’s — ok',
      'first item',
      'second item',
      'numbered',
      'cell a cell b',
      'marquee text bad link good link',
      'end',
      'of the notice',
    ]);
    for (const word of DROPPED) expect(printed.join('\n')).not.toContain(`${word}-TEXT`);
  }, 90_000);
});
