import { describe, expect, it } from 'vitest';
import { useBrowser, newPage } from './support/browser';
import { PARENT_SITE_URL, PUBLIC_ORIGIN } from './support/constants';
import { suiteServer } from './support/suite-server';

const baseUrl = suiteServer().baseUrl;
const browser = useBrowser();

describe('landing page', () => {
  it('shows the Hebrew RTL landing with logo, heading, tagline and the legal footer', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl}/`);

    const html = page.locator('html');
    expect(await html.getAttribute('lang')).toBe('he');
    expect(await html.getAttribute('dir')).toBe('rtl');
    expect(await page.title()).toBe('מרפאה חכמה');

    await page
      .getByRole('heading', { level: 1, name: 'מרפא – זימון תורים למרפאות שיניים' })
      .waitFor();
    await page.getByText('קביעת תורים בקלות ובמהירות').waitFor();

    const logoLink = page.getByRole('link', { name: 'מרפא – לאתר הבית' });
    expect(await logoLink.getAttribute('href')).toBe(PARENT_SITE_URL);
    const logoBox = await logoLink.locator('img').boundingBox();
    expect(logoBox?.height).toBe(120);

    const footer = page.getByRole('contentinfo');
    const links = footer.getByRole('link');
    expect(await links.allInnerTexts()).toEqual(['מדיניות פרטיות', 'תנאי שימוש', 'הצהרת נגישות']);
    expect(await Promise.all((await links.all()).map((l) => l.getAttribute('href')))).toEqual([
      '/privacy',
      '/terms',
      '/accessibility',
    ]);
    expect((await footer.innerText()).match(/\|/g)).toHaveLength(2);
    expect(await footer.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');

    const brand = page.getByRole('banner').getByRole('link', { name: 'מרפא' });
    expect(await brand.getAttribute('href')).toBe('/');
    await context.close();
  });

  it('switches he → en → he, flipping lang and dir, and keeps the choice across a reload', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl}/`);
    const html = page.locator('html');

    await page.getByRole('button', { name: 'שפה' }).click();
    await page.getByRole('menuitemradio', { name: 'English' }).click();
    await page
      .getByRole('heading', { level: 1, name: 'Marpe – appointment booking for dental clinics' })
      .waitFor();
    expect(await html.getAttribute('lang')).toBe('en');
    expect(await html.getAttribute('dir')).toBe('ltr');
    expect(await page.title()).toBe('Smart Clinic');
    expect(await page.evaluate(() => localStorage.getItem('lang'))).toBe('en');

    await page.reload();
    await page.getByText('Book appointments easily and quickly').waitFor();
    expect(await html.getAttribute('dir')).toBe('ltr');

    await page.getByRole('button', { name: 'Language' }).click();
    await page.getByRole('menuitemradio', { name: 'עברית' }).click();
    await page.getByText('קביעת תורים בקלות ובמהירות').waitFor();
    expect(await html.getAttribute('lang')).toBe('he');
    expect(await html.getAttribute('dir')).toBe('rtl');

    await page.reload();
    await page.getByText('קביעת תורים בקלות ובמהירות').waitFor();
    expect(await html.getAttribute('dir')).toBe('rtl');
    await context.close();
  });

  it('offers a skip link as the first stop of the keyboard', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl}/`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.keyboard.press('Tab');
    const focused = page.locator(':focus');
    expect(await focused.innerText()).toBe('דילוג לתוכן הראשי');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    await context.close();
  });
});

describe('navigation', () => {
  it('sends unknown paths to the landing page', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl}/no/such/page?x=1`);
    await page.waitForURL(`${baseUrl}/`);
    await page
      .getByRole('heading', { level: 1, name: 'מרפא – זימון תורים למרפאות שיניים' })
      .waitFor();
    await context.close();
  });

  it('keeps the canonical link and the title in step with client-side navigation', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl}/`);
    const canonical = page.locator('link[rel="canonical"]');
    expect(await canonical.count()).toBe(1);
    expect(await canonical.getAttribute('href')).toBe(`${PUBLIC_ORIGIN}/`);

    await page.getByRole('contentinfo').getByRole('link', { name: 'תנאי שימוש' }).click();
    await page.waitForURL(`${baseUrl}/terms`);
    await page.getByRole('heading', { level: 1, name: 'תנאי שימוש' }).waitFor();
    expect(await canonical.count()).toBe(1);
    expect(await canonical.getAttribute('href')).toBe(`${PUBLIC_ORIGIN}/terms`);
    expect(await page.title()).toBe('תנאי שימוש');

    await page.getByRole('link', { name: 'חזרה' }).click();
    await page.waitForURL(`${baseUrl}/`);
    // The guard updates the head after the page has rendered: wait for it, do not race it.
    await page.waitForFunction(
      (href) => document.querySelector('link[rel="canonical"]')?.getAttribute('href') === href,
      `${PUBLIC_ORIGIN}/`,
    );
    expect(await canonical.count()).toBe(1);
    expect(await page.title()).toBe('מרפאה חכמה');
    await context.close();
  });
});
