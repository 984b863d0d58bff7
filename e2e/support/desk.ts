import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';

import { nextCode, messagesTo } from './patients';
import { suiteServer } from './suite-server';

const baseUrl = suiteServer().baseUrl;
const dataDir = suiteServer().dataDir;

/** Demo clinic 1's desk staff (apps/api/src/demo/demo-clinic.ts). */
export const demoOwner = { phone: '0527000001', typed: '052-7000001', name: 'רונית מזרחי' };
export const demoFrontDesk = { phone: '0527000002', typed: '052-7000002', name: 'שירה דוד' };

export type DeskViewport = 'desktop' | 'tablet';

const viewports = {
  // The smallest desktop, and a tablet held upright.
  desktop: { width: 1366, height: 768 },
  tablet: { width: 768, height: 1024 },
} as const;

/** A new browser context of the desk, in a language (its own setting, apart from the patients'). */
export async function newDeskPage(
  browser: Browser,
  options: { lang?: 'he' | 'en'; viewport?: DeskViewport; storageState?: string } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: viewports[options.viewport ?? 'desktop'],
    locale: 'he-IL',
    storageState: options.storageState,
  });
  const lang = options.lang ?? 'he';
  await context.addInitScript((value) => localStorage.setItem('marpe-desk-lang', value), lang);
  return { context, page: await context.newPage() };
}

/** Signs in on the desk's sign-in page with a phone and the code it was sent. */
export async function signInWithCode(page: Page, typedPhone: string, phone: string) {
  await page.goto(`${baseUrl}/desk/sign-in`);
  const lang = await page.evaluate(() => document.documentElement.lang);
  await page
    .getByRole('textbox', { name: lang === 'en' ? 'Mobile number' : 'מספר נייד' })
    .fill(typedPhone);
  const before = (await messagesTo(phone)).length;
  await page.getByRole('button', { name: lang === 'en' ? 'Send a code' : 'שליחת קוד' }).click();
  const code = await nextCode(phone, before);
  await page
    .getByRole('textbox', { name: lang === 'en' ? 'Verification code' : 'קוד אימות' })
    .fill(code);
  await page.waitForURL((url) => !url.pathname.startsWith('/desk/sign-in'));
}

/**
 * A desk page signed in as a staff member. The server sends a phone 5 codes an hour and an
 * address 30 (the whole suite's, patients' included), so each member signs in once per suite run:
 * the session's cookies are kept beside the server's data and reused by every file.
 */
export async function signedInDeskPage(
  browser: Browser,
  member: { phone: string; typed: string },
  options: { lang?: 'he' | 'en'; viewport?: DeskViewport } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const file = path.join(dataDir, `desk-session-${member.phone}.json`);
  if (fs.existsSync(file)) return newDeskPage(browser, { ...options, storageState: file });
  const opened = await newDeskPage(browser, options);
  await signInWithCode(opened.page, member.typed, member.phone);
  await opened.context.storageState({ path: file });
  return opened;
}

/** Calls the API from a signed-in desk page, as the desk does (cookies and anti-forgery header). */
export async function deskFetch<T>(
  page: Page,
  pathname: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
  // A page fresh from a stored session is still about:blank, whose document has no cookies to read.
  if (!page.url().startsWith(baseUrl)) await page.goto(`${baseUrl}/desk/`);
  return page.evaluate(
    async ({ pathname, init }) => {
      const token = /(?:^|; )(?:__Host-)?XSRF-TOKEN=([^;]+)/.exec(document.cookie)?.[1];
      const response = await fetch(pathname, {
        method: init.method ?? 'GET',
        headers: {
          'content-type': 'application/json',
          ...(token ? { 'x-xsrf-token': token } : {}),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
    },
    { pathname, init },
  );
}
