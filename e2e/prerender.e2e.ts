// Over 400 lines: the build-time and server-rendered pages' checks share one browser and one
// build's pages.
import type { BrowserContext, Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newPage, useBrowser } from './support/browser';
import { PARENT_SITE_URL } from './support/constants';
import { demoLinkPath, saveFormDraft } from './support/demo-links';
import { withCheckDigit } from './support/patients';
import { suiteServer } from './support/suite-server';

const baseUrl = suiteServer().baseUrl;
const browser = useBrowser();

/** The pages prerendered at build time (ADR 021), each with its heading in Hebrew and English. */
const pages = [
  {
    path: '/',
    he: 'מרפא – זימון תורים למרפאות שיניים',
    en: 'Marpe – appointment booking for dental clinics',
  },
  // The legal texts are Hebrew only (ADR 002), in either language.
  { path: '/privacy', he: 'מדיניות פרטיות', en: 'מדיניות פרטיות' },
  { path: '/terms', he: 'תנאי שימוש', en: 'תנאי שימוש' },
  { path: '/accessibility', he: 'הצהרת נגישות', en: 'הצהרת נגישות' },
  { path: '/completed', he: 'טופס נשלח', en: 'Form sent' },
  { path: '/expired', he: 'הקישור אינו תקף', en: 'This link is not valid' },
] as const;

/** Console messages that are errors or warnings: React reports hydration mismatches there. */
function consoleProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

describe('prerendered pages', () => {
  it.each(pages)('$path renders fully with JavaScript disabled', async ({ path, he }) => {
    const context = await browser().newContext({
      javaScriptEnabled: false,
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();
    await page.goto(`${baseUrl}${path}`);
    await page.getByRole('heading', { level: 1, name: he }).waitFor();
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
    // Styled from the HTML alone: the app bar is cyan before any script could insert a rule.
    const bar = page.getByRole('banner');
    expect(await bar.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      'rgb(0, 188, 212)',
    );
    expect(await page.getByRole('link', { name: 'מרפא', exact: true }).getAttribute('href')).toBe(
      '/',
    );
    expect(await page.locator('noscript').count()).toBe(0);
    await context.close();
  });

  it('the landing page links to the configured parent site without JavaScript', async () => {
    const context = await browser().newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/`);
    const logoLink = page.getByRole('link', { name: 'מרפא – לאתר הבית' });
    expect(await logoLink.getAttribute('href')).toBe(PARENT_SITE_URL);
    const footer = page.getByRole('contentinfo');
    expect(await footer.getByRole('link').allInnerTexts()).toEqual([
      'מדיניות פרטיות',
      'תנאי שימוש',
      'הצהרת נגישות',
    ]);
    await context.close();
  });

  it.each(pages)('$path hydrates without a warning', async ({ path, he }) => {
    const { context, page } = await newPage(browser());
    const problems = consoleProblems(page);
    await page.goto(`${baseUrl}${path}`);
    await page.getByRole('heading', { level: 1, name: he }).waitFor();
    await page.waitForLoadState('networkidle');
    // Hydrated: the language menu opens (its handler is React's).
    await page.getByRole('button', { name: 'שפה' }).click();
    await page.getByRole('menuitemradio', { name: 'English' }).waitFor();
    await page.keyboard.press('Escape');
    expect(problems).toEqual([]);
    await context.close();
  });

  it.each(pages)(
    '$path in English renders the English page over the HTML',
    async ({ path, en }) => {
      const { context, page } = await newPage(browser(), { lang: 'en' });
      const problems = consoleProblems(page);
      await page.goto(`${baseUrl}${path}`);
      await page.getByRole('heading', { level: 1, name: en }).waitFor();
      await page.locator('html[lang="en"][dir="ltr"]').waitFor();
      await page.getByRole('button', { name: 'Language' }).waitFor();
      expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
      expect(problems).toEqual([]);
      await context.close();
    },
  );
});

describe('the clinic page rendered on the server', () => {
  const clinicName = 'מרפאת שיניים לב העיר';

  it('holds the clinic and its caregivers before any script runs', async () => {
    const context = await browser().newContext({
      javaScriptEnabled: false,
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/clinic/1`);
    await page.getByRole('heading', { level: 1, name: clinicName }).waitFor();
    expect(await page.title()).toBe(clinicName);
    const caregivers = page.getByRole('list', { name: 'המטפלים במרפאה' }).getByRole('listitem');
    expect(await caregivers.count()).toBe(4);
    await caregivers.filter({ hasText: 'ד"ר יעל כהן' }).waitFor();
    expect(await page.getByRole('link', { name: 'קביעת תור' }).getAttribute('href')).toBe(
      '/login/1?next=booking',
    );
    await context.close();
  });

  it('hydrates without a warning, in Hebrew and in English', async () => {
    for (const lang of ['he', 'en'] as const) {
      const { context, page } = await newPage(browser(), { lang });
      const problems = consoleProblems(page);
      await page.goto(`${baseUrl}/clinic/1`);
      await page.getByRole('heading', { level: 1, name: clinicName }).waitFor();
      await page.waitForLoadState('networkidle');
      await page
        .getByRole('link', { name: lang === 'he' ? 'קביעת תור' : 'Book an appointment' })
        .click();
      await page.waitForURL(/\/login\/1/);
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  it('leaves an unknown clinic to the page, which says so', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl}/clinic/999`);
    await page.getByRole('heading', { level: 1, name: 'המרפאה לא נמצאה' }).waitFor();
    await context.close();
  });
});

/** Waits for the form's submit button to be enabled: the app's own check of what it holds. */
function submitEnabled(page: Page) {
  return page.waitForFunction(
    () =>
      document
        .querySelector<HTMLButtonElement>('button[type="submit"]')
        ?.getAttribute('aria-disabled') === null,
  );
}

/** Holds the app's entry chunk back until the returned function is called. */
async function holdAppCode(page: Page): Promise<() => void> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** The app's scripts a page has fetched so far (file names under /assets/). */
function scriptsFetched(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js')) {
      scripts.push(url.pathname.slice('/assets/'.length));
    }
  });
  return scripts;
}

/**
 * Whether the app's code was first asked for after the page had loaded (ADR 033: fetched while
 * the patient reads, never competing with the first paint).
 */
function appCodeAfterLoad(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const [navigation] = performance.getEntriesByType(
      'navigation',
    ) as PerformanceNavigationTiming[];
    const entry = performance
      .getEntriesByType('resource')
      .find((resource) => /\/assets\/index-[\w-]+\.js$/.test(resource.name));
    return (
      navigation !== undefined && entry !== undefined && entry.startTime >= navigation.loadEventEnd
    );
  });
}

/** Counts the app's takeovers of the page (`marpe:app-ready`), from the page's first script on. */
async function countAppStarts(page: Page): Promise<() => Promise<number>> {
  await page.addInitScript(() => {
    const counted = window as { marpeAppStarts?: number };
    counted.marpeAppStarts = 0;
    document.addEventListener('marpe:app-ready', () => {
      counted.marpeAppStarts = (counted.marpeAppStarts ?? 0) + 1;
    });
  });
  return () => page.evaluate(() => (window as { marpeAppStarts?: number }).marpeAppStarts ?? 0);
}

/**
 * Opens `path` in a fresh page and checks it paints with its waking script alone, fetches the app
 * once loaded and starts it without any act (ADR 033); answers the page and the scripts it fetched.
 */
async function openStartingWhileReading(
  path: string,
): Promise<{ context: BrowserContext; page: Page; scripts: string[] }> {
  const { context, page } = await newPage(browser());
  const starts = await countAppStarts(page);
  const scripts = scriptsFetched(page);
  await page.goto(`${baseUrl}${path}`);
  expect(scripts[0]).toMatch(/^wake-on-demand-[\w-]+\.js$/);
  await expect.poll(starts, { timeout: 20_000 }).toBe(1);
  expect(await appCodeAfterLoad(page)).toBe(true);
  return { context, page, scripts };
}

describe('pages a patient reads (ADR 025): nothing but the waking script until they act', () => {
  // `?clinic=` wakes only the pages that name the link's clinic with it (the completed page).
  it.each(['/', '/privacy', '/completed', '/privacy?clinic=1'])(
    '%s loads only its waking script until the patient acts on it',
    async (path) => {
      const { context, page } = await newPage(browser());
      const scripts = scriptsFetched(page);
      await page.goto(`${baseUrl}${path}`);
      await page.waitForLoadState('networkidle');
      expect(scripts).toHaveLength(1);
      expect(scripts[0]).toMatch(/^wake-on-demand-[\w-]+\.js$/);
      // The first touch wakes it: the app's code comes, and the page is React's.
      await page.getByRole('button', { name: 'שפה' }).click();
      await page.getByRole('menuitemradio', { name: 'English' }).waitFor();
      expect(scripts.some((script) => /^index-[\w-]+\.js$/.test(script))).toBe(true);
      await context.close();
    },
  );

  it("once awake, the language menu's code comes while the patient reads: its first tap fetches no script", async () => {
    const { context, page } = await newPage(browser());
    const scripts = scriptsFetched(page);
    await page.goto(`${baseUrl}/`);
    await page.waitForLoadState('networkidle');
    // A first act elsewhere on the page (a touch on its background) wakes the app.
    await page.evaluate(
      () =>
        new Promise((resolve) => {
          document.addEventListener('marpe:app-ready', resolve, { once: true });
          document.body.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
        }),
    );
    // The menu is in the pages' shared chunk, which the landing page itself does not need: it
    // comes once the page is idle, before any tap on the menu.
    await expect
      .poll(() => scripts.some((script) => /^pages-shared-[\w-]+\.js$/.test(script)), {
        timeout: 20_000,
      })
      .toBe(true);
    await page.waitForLoadState('networkidle');
    const before = scripts.length;
    await page.getByRole('button', { name: 'שפה' }).click();
    await page.getByRole('menuitemradio', { name: 'English' }).waitFor();
    expect(scripts.slice(before)).toEqual([]);
    await context.close();
  });

  it('wakes by keyboard alone: the key that focused the menu button and the Enter that opens it', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl}/`);
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: 'שפה' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menuitemradio', { name: 'English' }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page
      .getByRole('heading', { level: 1, name: 'Marpe – appointment booking for dental clinics' })
      .waitFor();
    await context.close();
  });

  it('wakes at once for a patient with a stored session, whose session is checked on load', async () => {
    const { context, page } = await newPage(browser());
    await context.addInitScript(() => window.localStorage.setItem('token', 'not-a-real-session'));
    const scripts = scriptsFetched(page);
    const sessionCheck = page.waitForRequest((request) => request.url().includes('/api/'));
    await page.goto(`${baseUrl}/`);
    await sessionCheck;
    expect(scripts.some((script) => /^index-[\w-]+\.js$/.test(script))).toBe(true);
    await context.close();
  });

  it('still follows a link when the app cannot load', async () => {
    const { context, page } = await newPage(browser());
    await page.route(/\/assets\/index-[\w-]+\.js$/, (route) => route.abort());
    await page.goto(`${baseUrl}/`);
    await page.waitForLoadState('networkidle');
    await page.getByRole('contentinfo').getByRole('link', { name: 'תנאי שימוש' }).click();
    await page.waitForURL(`${baseUrl}/terms`);
    await page.getByRole('heading', { level: 1, name: 'תנאי שימוש' }).waitFor();
    await context.close();
  });
});

describe('pages a patient came to act on (ADR 033): the app starts while they read', () => {
  it.each(['/clinic/1', '/login/1', '/booking/1'])(
    '%s paints from its HTML, fetches the app once loaded and starts it without an act',
    async (path) => {
      const { context, page, scripts } = await openStartingWhileReading(path);
      // The pages it leads to are loaded before the app starts (ADR 034): a tap renders one at once.
      const code = await page.locator('#marpe-code').textContent();
      expect(JSON.parse(code ?? '{}').nextRoutes).toEqual(
        expect.arrayContaining(['login-page', 'booking-page', 'appointments-page']),
      );
      // The next pages' code came with it: going on fetches no script.
      const before = scripts.length;
      await page.getByRole('button', { name: 'שפה' }).click();
      await page.getByRole('menuitemradio', { name: 'English' }).waitFor();
      expect(scripts.length).toBe(before);
      await context.close();
    },
  );

  it('a tap before the app runs shows at once that it works, and is answered once it runs, exactly once', async () => {
    const { context, page } = await newPage(browser());
    const problems = consoleProblems(page);
    const starts = await countAppStarts(page);
    const release = await holdAppCode(page);
    await page.goto(`${baseUrl}/clinic/1`);
    // Set on this document: a full page load would lose it.
    await page.evaluate(() => {
      (window as { sameDocument?: boolean }).sameDocument = true;
    });
    const book = page.getByRole('link', { name: 'קביעת תור' });
    await book.click();
    // Feedback before any code but the waking script has run.
    expect(await book.getAttribute('aria-busy')).toBe('true');
    expect(await page.locator('html[data-held]').count()).toBe(1);
    const entries = await page.evaluate(() => window.history.length);
    release();
    await page.waitForURL(`${baseUrl}/login/1?next=booking`);
    await page.getByRole('textbox', { name: /תעודת זהות/ }).waitFor();
    expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(
      true,
    );
    // Answered once: one navigation, one start, and the busy marks gone.
    expect(await page.evaluate(() => window.history.length)).toBe(entries + 1);
    expect(await starts()).toBe(1);
    expect(await page.locator('[data-held], [aria-busy="true"]').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe("the server's style rules (ADR 035)", () => {
  /**
   * Counts the style rules and style elements the page's scripts add or move, from its first
   * script on: the HTML's own `<style>` elements, which the parser adds, are not counted, nor is
   * the move of a <Global>'s (CssBaseline's), which emotion makes wherever it finds it.
   */
  async function countStylesAdded(page: Page): Promise<() => Promise<string[]>> {
    await page.addInitScript(() => {
      const added: string[] = [];
      (window as { marpeStylesAdded?: string[] }).marpeStylesAdded = added;
      const insertRule = CSSStyleSheet.prototype.insertRule;
      CSSStyleSheet.prototype.insertRule = function (rule, index) {
        added.push(rule);
        return insertRule.call(this, rule, index);
      };
      document.addEventListener('DOMContentLoaded', () =>
        new MutationObserver((mutations) => {
          for (const { addedNodes } of mutations) {
            for (const node of addedNodes) {
              if (!(node instanceof HTMLStyleElement)) continue;
              const emotion = node.getAttribute('data-emotion') ?? '';
              if (!emotion.split(' ')[0]?.endsWith('-global')) added.push(`moved ${emotion}`);
            }
          }
        }).observe(document, { childList: true, subtree: true }),
      );
      const createElement = Document.prototype.createElement;
      Document.prototype.createElement = function (
        this: Document,
        name: string,
        options?: ElementCreationOptions,
      ) {
        if (name.toLowerCase() === 'style') added.push('<style>');
        return createElement.call(this, name, options);
      } as typeof Document.prototype.createElement;
    });
    return () =>
      page.evaluate(() => (window as { marpeStylesAdded?: string[] }).marpeStylesAdded ?? []);
  }

  it.each(['/clinic/1', '/login/1', 'form', 'payment'])(
    '%s: the app starts on the rules the server wrote in <head>, and adds or moves none',
    async (row) => {
      const path =
        row === 'form'
          ? await demoLinkPath(baseUrl, 'formUrl')
          : row === 'payment'
            ? await demoLinkPath(baseUrl, 'paymentUrl')
            : row;
      const { context, page } = await newPage(browser());
      const added = await countStylesAdded(page);
      const starts = await countAppStarts(page);
      await page.goto(`${baseUrl}${path}`);
      await expect.poll(starts, { timeout: 20_000 }).toBe(1);
      // The class names the server rendered are the browser's: no development-mode labels.
      const classes = await page.evaluate(() =>
        [...document.querySelectorAll('#root [class]')].flatMap((element) =>
          [...element.classList].filter((name) => /^mui[a-z]*-/.test(name)),
        ),
      );
      expect(classes.length).toBeGreaterThan(0);
      expect(classes.filter((name) => name.includes('-Mui'))).toEqual([]);
      // Had they differed, the app would compute and insert every rule again as it started.
      expect(await added()).toEqual([]);
      // The server's rules are in <head>, none beside the markup for emotion to move there.
      expect(await page.locator('body style').count()).toBe(0);
      expect(await page.locator('head style[data-marpe-styles^="muirtl "]').count()).toBe(1);
      await context.close();
    },
  );

  it("a tap's new components add their rules to the server's stylesheet, not a new one", async () => {
    const { context, page } = await newPage(browser());
    const added = await countStylesAdded(page);
    const starts = await countAppStarts(page);
    await page.goto(`${baseUrl}${await demoLinkPath(baseUrl, 'paymentUrl')}`);
    await expect.poll(starts, { timeout: 20_000 }).toBe(1);
    await page.getByRole('button', { name: 'המשך לתשלום' }).click();
    await page.locator('iframe[title="טופס תשלום מאובטח"]').waitFor();
    // The card step's rules, written into the page's own stylesheet: a new one would have the
    // browser match every element against every rule again, inside the tap.
    expect((await added()).length).toBeGreaterThan(0);
    expect(await added()).not.toContain('<style>');
    await context.close();
  });
});

describe('the payment page rendered on the server (ADR 021, 025)', () => {
  const email = () => ({ name: 'דוא״ל לקבלה' });

  it("holds the link's request and its form before any script runs", async () => {
    const path = await demoLinkPath(baseUrl, 'paymentUrl');
    const context = await browser().newContext({
      javaScriptEnabled: false,
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();
    const response = await page.goto(`${baseUrl}${path}`);
    expect(response?.headers()['cache-control']).toBe('no-store');
    await page.getByRole('heading', { level: 1, name: 'בקשת תשלום' }).waitFor();
    expect(await page.getByText(/^₪[\d,]+(\.\d\d)?$/).count()).toBe(1);
    await page.getByRole('textbox', email()).waitFor();
    await page.getByRole('button', { name: 'המשך לתשלום' }).waitFor();
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe(
      'noindex, nofollow',
    );
    await context.close();
  });

  it('paints with its waking script alone, then starts the app while the patient reads (ADR 033)', async () => {
    const { context } = await openStartingWhileReading(await demoLinkPath(baseUrl, 'paymentUrl'));
    await context.close();
  });

  it('keeps what the patient typed and pressed before the app arrived', async () => {
    const path = await demoLinkPath(baseUrl, 'paymentUrl');
    const { context, page } = await newPage(browser());
    const problems = consoleProblems(page);
    // The app's entry chunk waits until the patient has filled the form in and pressed on.
    const release = await holdAppCode(page);
    await page.goto(`${baseUrl}${path}`, { waitUntil: 'domcontentloaded' });
    await page.getByRole('combobox', { name: 'מספר תשלומים' }).selectOption('3');
    await page.getByRole('textbox', email()).fill('typed.early@example.com');
    await page.getByRole('button', { name: 'המשך לתשלום' }).click();
    release();
    const frame = page.getByTitle('טופס תשלום מאובטח');
    await frame.waitFor();
    const src = new URL((await frame.getAttribute('src')) ?? '');
    expect(src.searchParams.get('email')).toBe('typed.early@example.com');
    expect(src.searchParams.get('npay')).toBe('2');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('carries what was typed into the page rendered afresh in English', async () => {
    const path = await demoLinkPath(baseUrl, 'paymentUrl');
    const { context, page } = await newPage(browser(), { lang: 'en' });
    const release = await holdAppCode(page);
    await page.goto(`${baseUrl}${path}`, { waitUntil: 'domcontentloaded' });
    await page.getByRole('textbox', email()).fill('typed.early@example.com');
    release();
    await page.getByRole('heading', { level: 1, name: 'Payment request' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Email for the receipt' }).inputValue()).toBe(
      'typed.early@example.com',
    );
    await context.close();
  });
});

describe('the payment result page rendered on the server (ADR 025)', () => {
  const result = async (code: string) =>
    (await demoLinkPath(baseUrl, 'paymentUrl')).replace(/^\/p\//, '/tranzila/') +
    `?results=${encodeURIComponent(`Response=${code}&index=9`)}`;

  it('a declined card reads without JavaScript', async () => {
    const context = await browser().newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const response = await page.goto(`${baseUrl}${await result('033')}`);
    expect(response?.headers()['cache-control']).toBe('no-store');
    await page.getByRole('heading', { level: 1, name: 'שגיאה בתשלום: כרטיס פגום' }).waitFor();
    await page.getByRole('button', { name: 'ניסיון נוסף' }).waitFor();
    expect(await page.title()).toBe('שגיאה בתשלום');
    await context.close();
  });

  it('loads only its waking script until try again, which the app then runs', async () => {
    const path = await result('033');
    const { context, page } = await newPage(browser());
    const problems = consoleProblems(page);
    const scripts = scriptsFetched(page);
    await page.goto(`${baseUrl}${path}`);
    await page.waitForLoadState('networkidle');
    expect(scripts).toEqual([expect.stringMatching(/^wake-on-demand-[\w-]+\.js$/)]);
    await page.getByRole('button', { name: 'ניסיון נוסף' }).click();
    await page.waitForURL(
      (url) => url.pathname === path.replace(/^\/tranzila\//, '/p/').split('?')[0],
    );
    await page.getByRole('heading', { level: 1, name: 'בקשת תשלום' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a success not yet confirmed loads the app at once, which asks until it is settled', async () => {
    const { context, page } = await newPage(browser());
    const problems = consoleProblems(page);
    const scripts = scriptsFetched(page);
    const asked = page.waitForRequest((request) =>
      request.url().endsWith('/api/get-payment-request'),
    );
    // The demo link was never paid: processing, then not confirmed once it stays pending.
    await page.goto(`${baseUrl}${await result('000')}`);
    await page.getByRole('status').getByText('מאשרים את התשלום מול חברת האשראי…').waitFor();
    await asked;
    expect(scripts.some((script) => /^index-[\w-]+\.js$/.test(script))).toBe(true);
    await page
      .getByRole('heading', { level: 1, name: 'התשלום לא אושר' })
      .waitFor({ timeout: 20_000 });
    expect(problems).toEqual([]);
    await context.close();
  }, 30_000);
});

describe('the form page rendered on the server (ADR 021, 025)', () => {
  const formPath = () => demoLinkPath(baseUrl, 'formUrl');
  const idNumber = () => ({ name: 'תעודת זהות' });
  const allergies = () => ({ name: /רגישות או אלרגיה/ });

  /** The next draft the page saves, as the server gets it. */
  function nextDraftSaved(page: Page): Promise<Record<string, unknown>> {
    return page
      .waitForRequest((request: Request) => request.url().endsWith('/api/save-form-draft'))
      .then(
        (request) => (request.postDataJSON() as { inputData: Record<string, unknown> }).inputData,
      );
  }

  it("holds the link's form, its step and its fields before any script runs", async () => {
    const path = await formPath();
    const context = await browser().newContext({
      javaScriptEnabled: false,
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();
    const response = await page.goto(`${baseUrl}${path}`);
    expect(response?.headers()['cache-control']).toBe('no-store');
    await page.getByRole('heading', { level: 1, name: 'פרטים אישיים' }).waitFor();
    expect(await page.title()).toBe('פרטים אישיים');
    await page.getByRole('heading', { name: 'שלום דנה,' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'שם פרטי' }).inputValue()).toBe('דנה');
    await page.getByRole('textbox', idNumber()).waitFor();
    await page.getByRole('combobox', { name: 'מין' }).waitFor();
    await page.getByRole('button', { name: 'המשך' }).waitFor();
    expect(await page.getByRole('img', { name: 'לוגו המרפאה' }).count()).toBe(1);
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe(
      'noindex, nofollow',
    );
    await context.close();
  });

  it('opens on the step and answers of its draft, without JavaScript too', async () => {
    const path = await formPath();
    await saveFormDraft(baseUrl, path, {
      inputData: { first_name: 'דנה', has_allergies: true, allergies_details: 'לטקס' },
      stepIndex: 1,
    });
    const context = await browser().newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${baseUrl}${path}`);
    await page.getByRole('heading', { level: 1, name: 'היסטוריה רפואית' }).waitFor();
    expect(await page.getByRole('checkbox', allergies()).isChecked()).toBe(true);
    expect(await page.getByRole('textbox', { name: 'פירוט האלרגיות' }).inputValue()).toBe('לטקס');
    await context.close();
  });

  it('paints with its waking script alone, then starts the app while the patient reads (ADR 033)', async () => {
    const { context, page } = await openStartingWhileReading(await formPath());
    // A submit with nothing filled in is answered by the running app at once.
    await page.getByRole('button', { name: 'המשך' }).click();
    await page.getByRole('alert').waitFor();
    await context.close();
  });

  it('keeps what the patient typed and chose before the app arrived, and saves it', async () => {
    const path = await formPath();
    const { context, page } = await newPage(browser());
    const problems = consoleProblems(page);
    const release = await holdAppCode(page);
    await page.goto(`${baseUrl}${path}`, { waitUntil: 'domcontentloaded' });
    await page.getByRole('textbox', idNumber()).fill('123456782');
    // Typed without its mask: the app puts it in as the patient would have seen it typed.
    await page.getByRole('textbox', { name: 'תאריך לידה' }).fill('01011990');
    await page.getByRole('combobox', { name: 'מין' }).selectOption('female');
    const saved = nextDraftSaved(page);
    release();
    expect(await saved).toMatchObject({
      first_name: 'דנה',
      id_number: '123456782',
      birth_date: '01.01.1990',
      gender: 'female',
    });
    expect(await page.getByRole('textbox', { name: 'תאריך לידה' }).inputValue()).toBe('01.01.1990');
    await page.getByText('התשובות נשמרו', { exact: false }).waitFor();
    // What the app has is what the next visit gets from the server.
    await page.reload();
    expect(await page.getByRole('textbox', idNumber()).inputValue()).toBe('123456782');
    expect(await page.getByRole('combobox', { name: 'מין' }).inputValue()).toBe('female');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('ticks a checkbox clicked before the app arrived, once it has', async () => {
    const path = await formPath();
    await saveFormDraft(baseUrl, path, { inputData: { first_name: 'דנה' }, stepIndex: 1 });
    const { context, page } = await newPage(browser());
    const problems = consoleProblems(page);
    const release = await holdAppCode(page);
    await page.goto(`${baseUrl}${path}`, { waitUntil: 'domcontentloaded' });
    await page.getByRole('heading', { level: 1, name: 'היסטוריה רפואית' }).waitFor();
    const checkbox = page.getByRole('checkbox', allergies());
    await checkbox.click();
    // Held back until the app can take it: the box is not ticked in the HTML alone.
    expect(await checkbox.isChecked()).toBe(false);
    const saved = nextDraftSaved(page);
    release();
    // The app's own handler ran: the box is ticked and the field it reveals is there.
    await page.getByRole('textbox', { name: 'פירוט האלרגיות' }).waitFor();
    expect(await checkbox.isChecked()).toBe(true);
    expect(await saved).toMatchObject({ has_allergies: true });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("hydrates the step with the clinic's HTML and a signature pad without a warning", async () => {
    const path = await formPath();
    await saveFormDraft(baseUrl, path, {
      inputData: { first_name: 'דנה', birth_date: '01/01/1990' },
      stepIndex: 2,
    });
    const { context, page } = await newPage(browser());
    const problems = consoleProblems(page);
    await page.goto(`${baseUrl}${path}`);
    await page.getByRole('heading', { level: 1, name: 'הצהרה וחתימה' }).waitFor();
    // The clinic's HTML, parsed on the server as the browser parses it; the pad waits for the app.
    await page.getByText('דנה לוי', { exact: true }).waitFor();
    await page.getByRole('img', { name: /משטח חתימה/ }).waitFor();
    const declaration = page.getByRole('checkbox', { name: 'קראתי ואני מאשר/ת את ההצהרה' });
    await declaration.click();
    await page.waitForFunction(
      () => document.querySelector<HTMLInputElement>('input[name="consent"]')?.checked,
    );
    expect(problems).toEqual([]);
    await context.close();
  });

  it('carries what was typed into the page rendered afresh in English', async () => {
    const path = await formPath();
    const { context, page } = await newPage(browser(), { lang: 'en' });
    const problems = consoleProblems(page);
    const release = await holdAppCode(page);
    await page.goto(`${baseUrl}${path}`, { waitUntil: 'domcontentloaded' });
    await page.getByRole('textbox', idNumber()).fill('123456782');
    release();
    await page.getByText('Step 1 of 3').waitFor();
    expect(await page.getByRole('textbox', idNumber()).inputValue()).toBe('123456782');
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('the login page rendered on the server (ADR 021, 025)', () => {
  it('holds the clinic and the identity step before any script runs', async () => {
    const context = await browser().newContext({
      javaScriptEnabled: false,
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/login/1?next=booking`);
    await page.getByRole('heading', { level: 1, name: 'הזדהות' }).waitFor();
    expect(await page.title()).toBe('הזדהות');
    await page.getByText('מרפאת שיניים לב העיר').first().waitFor();
    await page.getByRole('textbox', { name: 'מספר תעודת זהות' }).waitFor();
    await page.getByRole('textbox', { name: 'טלפון נייד' }).waitFor();
    await context.close();
  });

  it('keeps what the patient typed before the app arrived', async () => {
    const { context, page } = await newPage(browser());
    const problems = consoleProblems(page);
    const release = await holdAppCode(page);
    await page.goto(`${baseUrl}/login/1`, { waitUntil: 'domcontentloaded' });
    const next = page.getByRole('button', { name: 'המשך' });
    // Until the app checks them, the fields cannot be sent: the button is unavailable in the HTML.
    expect(await next.getAttribute('aria-disabled')).toBe('true');
    const idNumber = withCheckDigit('12345678');
    await page.getByRole('textbox', { name: 'מספר תעודת זהות' }).fill(idNumber);
    await page.getByRole('textbox', { name: 'טלפון נייד' }).fill('0501234567');
    release();
    // The app has the typed values: its own check enables the button.
    await submitEnabled(page);
    expect(await page.getByRole('textbox', { name: 'מספר תעודת זהות' }).inputValue()).toBe(
      idNumber,
    );
    expect(await page.getByRole('textbox', { name: 'טלפון נייד' }).inputValue()).toBe('0501234567');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a tap on continue before the app runs is held, shown busy, and answered once it runs, once', async () => {
    const { context, page } = await newPage(browser());
    const problems = consoleProblems(page);
    const logins: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/patient-auth/login') logins.push(request.url());
    });
    const release = await holdAppCode(page);
    await page.goto(`${baseUrl}/login/1`, { waitUntil: 'domcontentloaded' });
    await page.getByRole('textbox', { name: 'מספר תעודת זהות' }).fill(withCheckDigit('45678901'));
    await page.getByRole('textbox', { name: 'טלפון נייד' }).fill('0501234567');
    const next = page.getByRole('button', { name: 'המשך' });
    // The HTML cannot check the fields, so the button is unavailable, yet it takes the tap: a
    // disabled one would drop it. (force: Playwright waits for an aria-disabled button.)
    await next.click({ force: true });
    expect(await next.getAttribute('aria-busy')).toBe('true');
    release();
    // Answered by the app: a new patient's ID goes on to the names step, after one login call.
    await page.getByRole('textbox', { name: 'שם פרטי' }).waitFor();
    expect(logins).toHaveLength(1);
    expect(await page.locator('[data-held]').count()).toBe(0);
    // The login's 404 (no such patient yet) is the only message.
    expect(problems).toEqual([expect.stringMatching(/status of 404/)]);
    await context.close();
  });

  it('is rendered afresh, not hydrated, for a patient with a code on its way', async () => {
    const { context, page } = await newPage(browser());
    const problems = consoleProblems(page);
    await context.addInitScript(() =>
      window.sessionStorage.setItem(
        'verification',
        JSON.stringify({
          clinicId: 1,
          mode: 'login',
          idNumber: '039845128',
          phone: '0501234567',
          firstName: '',
          lastName: '',
          resendAt: Date.now() + 60_000,
          twoFactorToken: 'not-a-real-token',
        }),
      ),
    );
    // The code page asks whether the code's SMS arrived; the server refuses this made-up token
    // (400, which the console reports whenever the answer beats the check below).
    await page.route('**/api/patient-auth/code-delivery', (route) =>
      route.fulfill({ json: { delivery: 'pending', clinicPhone: '03-5551234' } }),
    );
    await page.goto(`${baseUrl}/login/1`);
    await page.getByRole('textbox', { name: 'קוד אימות' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('the booking and appointments pages of a patient without a session (ADR 025)', () => {
  it('the booking page holds the clinic and the identity step before any script runs', async () => {
    const context = await browser().newContext({
      javaScriptEnabled: false,
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/booking/1?caregiverId=1`);
    await page.getByRole('heading', { level: 1, name: 'קביעת תור' }).waitFor();
    await page.getByText('כדי לקבוע תור יש להזדהות תחילה.').waitFor();
    await page.getByText('מרפאת שיניים לב העיר').first().waitFor();
    await page.getByRole('textbox', { name: 'מספר תעודת זהות' }).waitFor();
    await context.close();
  });

  it('the booking page keeps what was typed before the app, hydrating without a warning', async () => {
    const { context, page } = await newPage(browser());
    const problems = consoleProblems(page);
    const release = await holdAppCode(page);
    await page.goto(`${baseUrl}/booking/1`, { waitUntil: 'domcontentloaded' });
    const idNumber = withCheckDigit('23456789');
    await page.getByRole('textbox', { name: 'מספר תעודת זהות' }).fill(idNumber);
    await page.getByRole('textbox', { name: 'טלפון נייד' }).fill('0501234567');
    release();
    await submitEnabled(page);
    expect(await page.getByRole('textbox', { name: 'מספר תעודת זהות' }).inputValue()).toBe(
      idNumber,
    );
    expect(problems).toEqual([]);
    await context.close();
  });

  it.each(['/appointments/1', '/booking/1/confirmation'])(
    "%s is the login page's HTML, at the login's address once awake",
    async (path) => {
      const { context, page } = await newPage(browser());
      const problems = consoleProblems(page);
      const scripts = scriptsFetched(page);
      await page.goto(`${baseUrl}${path}`);
      expect(scripts[0]).toMatch(/^wake-on-demand-[\w-]+\.js$/);
      await page.getByRole('heading', { level: 1, name: 'הזדהות' }).waitFor();
      const idNumber = withCheckDigit('34567890');
      await page.getByRole('textbox', { name: 'מספר תעודת זהות' }).fill(idNumber);
      // Hydrated at the address the app itself would have sent the patient to.
      await page.waitForURL(`${baseUrl}/login/1`);
      await page.getByRole('textbox', { name: 'טלפון נייד' }).fill('0501234567');
      await submitEnabled(page);
      expect(await page.getByRole('textbox', { name: 'מספר תעודת זהות' }).inputValue()).toBe(
        idNumber,
      );
      expect(problems).toEqual([]);
      await context.close();
    },
  );

  it('with a stored session the HTML rendered for nobody waits hidden under a spinner until the app renders', async () => {
    const { context, page } = await newPage(browser());
    await context.addInitScript(() => window.localStorage.setItem('token', 'not-a-real-session'));
    const release = await holdAppCode(page);
    await page.goto(`${baseUrl}/appointments/1`, { waitUntil: 'domcontentloaded' });
    const idField = page.getByRole('textbox', { name: 'מספר תעודת זהות' });
    const spinner = () =>
      page
        .locator('#root')
        .evaluate((root) => getComputedStyle(root, '::after').animationName !== 'none');
    expect(await idField.isVisible()).toBe(false);
    expect(await spinner()).toBe(true);
    // The top bar, the same on every page, stays.
    expect(await page.getByRole('banner').isVisible()).toBe(true);
    release();
    // The session is refused: the app sends the patient to the login page, shown this time.
    await page.waitForURL(`${baseUrl}/login/1`);
    await idField.waitFor({ state: 'visible' });
    expect(await spinner()).toBe(false);
    await context.close();
  });
});
