import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { chromiumArgs, chromiumPath } from './chromium.mjs';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
}

/** One Chromium for a test file, launched before its tests and closed after them. */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the browser starts in beforeAll: use it inside tests');
    return browser;
  };
}

export type Viewport = 'mobile' | 'desktop';

export async function newPage(
  browser: Browser,
  options: { viewport?: Viewport; lang?: 'he' | 'en' } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport:
      options.viewport === 'desktop' ? { width: 1280, height: 800 } : { width: 390, height: 844 },
    locale: 'he-IL',
  });
  if (options.lang) {
    const lang = options.lang;
    await context.addInitScript((value) => window.localStorage.setItem('lang', value), lang);
  }
  const page = await context.newPage();
  return { context, page };
}

/** Waits for the page's transitions and animations that end (not a spinner's) to end. */
function transitionsEnded(page: Page): Promise<unknown> {
  return page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return results.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).join('\n  ')}`,
  );
}

/**
 * Runs axe with the WCAG 2.0/2.1 A and AA rules and fails listing every violation. axe reads
 * colours as they are painted: a button caught mid-transition (MUI fades a disabled button's
 * background in over 250 ms, a snackbar fades out) measures half-way and fails contrast. So it
 * runs once transitions have ended, and a violation counts when it is still there a moment later.
 */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  await transitionsEnded(page);
  let summary = await axeViolations(page);
  if (summary.length > 0) {
    await page.waitForTimeout(500);
    await transitionsEnded(page);
    summary = await axeViolations(page);
  }
  expect(summary, `axe violations on ${page.url()}`).toEqual([]);
}

/** Every page in both languages at both widths: the cases an axe suite runs. */
export function axeCases(paths: readonly string[]) {
  return (['he', 'en'] as const).flatMap((lang) =>
    (['mobile', 'desktop'] as const satisfies readonly Viewport[]).flatMap((viewport) =>
      paths.map((path) => ({ path, lang, viewport })),
    ),
  );
}

/** Switches the UI language through the top bar's menu, as a user would. */
export async function switchLanguage(page: Page, to: 'he' | 'en'): Promise<void> {
  await page.getByRole('button', { name: to === 'en' ? 'שפה' : 'Language' }).click();
  await page.getByRole('menuitemradio', { name: to === 'en' ? 'English' : 'עברית' }).click();
  await page.getByRole('menu').waitFor({ state: 'detached' });
  await page.locator(`html[lang="${to}"]`).waitFor();
}

/** MUI fades dialogs, popovers and backdrops in: axe must see every layer settled. */
export async function settled(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((s) => {
    const element = document.querySelector(s);
    if (!element) return false;
    for (let el: Element | null = element; el; el = el.parentElement) {
      if (getComputedStyle(el).opacity !== '1') return false;
    }
    return [...document.querySelectorAll('.MuiBackdrop-root')].every(
      (el) => getComputedStyle(el).opacity === '1',
    );
  }, selector);
}

/**
 * Where the suites leave screenshots for people to compare (issue reviews, before/after notes):
 * `e2e/output/screenshots/<name>.png`, not checked in. Full page, once transitions have ended.
 */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  await transitionsEnded(page);
  const url = new URL(`../output/screenshots/${name}.png`, import.meta.url);
  await page.screenshot({ path: url.pathname, fullPage: true });
}
