import { describe, expect, inject, it } from 'vitest';
import { useBrowser, newPage } from './support/browser';

const baseUrl = inject('baseUrl');
const browser = useBrowser();

const legalPages = [
  { path: '/privacy', title: 'מדיניות פרטיות', updated: 'יוני 2025', en: 'Privacy policy' },
  { path: '/terms', title: 'תנאי שימוש', updated: 'יוני 2025', en: 'Terms of use' },
  {
    path: '/accessibility',
    title: 'הצהרת נגישות',
    updated: 'יולי 2023',
    en: 'Accessibility statement',
  },
];

describe.each(legalPages)('legal page $path', ({ path, title, updated, en }) => {
  it('shows the Hebrew document with its date and a back button to the landing page', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl}${path}`);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    expect(await page.title()).toBe(title);
    const article = page.locator('article');
    expect(await article.getAttribute('lang')).toBe('he');
    expect(await article.getAttribute('dir')).toBe('rtl');
    expect(await article.innerText()).toContain(updated);
    expect(await page.getByRole('heading', { level: 2 }).count()).toBeGreaterThan(3);

    await page.getByRole('link', { name: 'חזרה' }).click();
    await page.waitForURL(`${baseUrl}/`);
    await page.getByText('קביעת תורים בקלות ובמהירות').waitFor();
    await context.close();
  });

  it('keeps the Hebrew document in English, with an English note and title', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en' });
    await page.goto(`${baseUrl}${path}`);
    await page.getByText('This document is available in Hebrew only.').waitFor();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    expect(await page.title()).toBe(en);
    expect(await page.locator('html').getAttribute('dir')).toBe('ltr');
    await page.getByRole('link', { name: 'Back' }).waitFor();
    await context.close();
  });
});

describe('the accessibility statement', () => {
  it('names the standard, the level and how to reach the accessibility coordinator', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl}/accessibility`);
    const text = await page.locator('article').innerText();
    expect(text).toContain('5568');
    expect(text).toContain('AA');
    expect(text).toContain('WCAG 2.0');
    const mail = page.getByRole('link', { name: 'accessibility@marpe.co.il' });
    expect(await mail.getAttribute('href')).toBe('mailto:accessibility@marpe.co.il');
    await context.close();
  });
});

describe('status pages', () => {
  it('shows the form-completed page', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl}/completed`);
    await page.getByRole('heading', { level: 1, name: 'טופס נשלח' }).waitFor();
    await page.getByText('הטופס נשלח בהצלחה למרפאה. תודה').waitFor();
    expect(await page.title()).toBe('טופס נשלח');
    await context.close();
  });

  it('shows the expired-link page telling the patient to ask the clinic for a new link', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl}/expired`);
    await page.getByRole('heading', { level: 1, name: 'הקישור אינו תקף' }).waitFor();
    await page.getByText('אנא פנו למרפאה לקבלת קישור חדש').waitFor();
    await context.close();
  });
});
