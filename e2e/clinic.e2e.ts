import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  axeCases,
  expectNoAxeViolations,
  newPage,
  saveScreenshot,
  useBrowser,
} from './support/browser';
import { PUBLIC_ORIGIN } from './support/constants';
import { suiteServer } from './support/suite-server';

const baseUrl = suiteServer().baseUrl;
const browser = useBrowser();

// The demo data (apps/api/src/demo): clinic 1 takes bookings, clinic 2 has no working hours yet.
const clinic1 = 'מרפאת שיניים לב העיר';
const clinic2 = 'מרפאת השיניים הכרמל';
// The one date format of the patient pages (docs/formats.md).
const slotFormat = /^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/;

/** The first caregiver's next free time as a person says it, from what the API answers. */
async function saidNextSlot(lang: 'he' | 'en'): Promise<string> {
  const data = (await (await fetch(`${baseUrl}/api/clinic/1`)).json()) as {
    clinic: { timezone: string };
    caregivers: { first_available_slot: { start: string } | null }[];
  };
  const start = new Date(data.caregivers[0]?.first_available_slot?.start ?? '');
  const timeZone = data.clinic.timezone;
  const date = new Intl.DateTimeFormat(lang === 'he' ? 'he-IL' : 'en-GB', {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(start);
  const time = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(start);
  return lang === 'he' ? `${date}, בשעה ${time}` : `${date}, at ${time}`;
}

function decodedPath(page: Page): string {
  return decodeURIComponent(new URL(page.url()).pathname);
}

async function imageLoaded(page: Page, selector: string): Promise<boolean> {
  return page
    .locator(selector)
    .first()
    .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);
}

describe('clinic page', () => {
  it('shows the demo clinic with every part and makes its name in the address canonical', async () => {
    const { context, page } = await newPage(browser(), { viewport: 'desktop' });
    // Spaces (plain and encoded) and gershayim (Hebrew and ASCII) in the name part.
    await page.goto(`${baseUrl}/clinic/1/מרפאת שיניים%20״לב״ "העיר"?from=e2e`);

    await page.getByRole('heading', { level: 1, name: clinic1 }).waitFor();
    await page.waitForFunction(() => !decodeURIComponent(location.pathname).includes(' '));
    expect(decodedPath(page)).toBe('/clinic/1/מרפאת-שיניים-לב-העיר');
    expect(new URL(page.url()).search).toBe('?from=e2e');
    expect(await page.title()).toBe(clinic1);
    // The server redirected there: its HTML already names the canonical address.
    const canonical = `${PUBLIC_ORIGIN}/clinic/1/${encodeURIComponent('מרפאת-שיניים-לב-העיר')}?from=e2e`;
    await page.locator(`link[rel="canonical"][href="${canonical}"]`).waitFor({ state: 'attached' });
    expect(await page.locator('link[rel="canonical"]').count()).toBe(1);
    // Going back leaves the site: the rewrite replaced the entry instead of adding one.
    expect(await page.evaluate(() => history.length)).toBe(2);
    // Nor is it a new page to announce: focus was not moved.
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);

    // Header: the cover, the logo (named after the clinic, 120 px on desktop), the address.
    const hero = page.getByTestId('clinic-hero');
    expect(await hero.getAttribute('src')).toBe('/demo/clinic-cover.svg');
    expect(await hero.getAttribute('alt')).toBe('');
    // The logo is decorative: the clinic's name is the heading beside it, said once.
    const logo = page.getByTestId('clinic-logo');
    expect(await logo.locator('img').getAttribute('alt')).toBe('');
    expect(await page.getByRole('img', { name: clinic1 }).count()).toBe(0);
    await page.waitForFunction(() =>
      [...document.images].every((img) => img.complete && img.naturalWidth > 0),
    );
    expect(await imageLoaded(page, '[data-testid="clinic-hero"]')).toBe(true);
    // The avatar (its white ring included) is 120 px on desktop.
    expect((await logo.boundingBox())?.width).toBe(120);
    await page.getByText('שדרות רוטשילד 45, תל אביב-יפו').first().waitFor();

    const description = page.getByText(/^מרפאת שיניים לב העיר מטפלת/);
    expect(await description.evaluate((el) => getComputedStyle(el).whiteSpace)).toBe('pre-line');
    expect((await description.innerText()).split('\n').filter(Boolean)).toHaveLength(3);

    expect(await page.getByRole('heading', { level: 2 }).allInnerTexts()).toEqual([
      'סוגי טיפולים',
      'המטפלים במרפאה',
      'פרטי התקשרות',
      'שעות פעילות',
    ]);
    expect(
      await page.getByRole('list', { name: 'סוגי טיפולים' }).getByRole('listitem').allInnerTexts(),
    ).toEqual(['בדיקה תקופתית', 'ניקוי אבנית', 'סתימה', 'ייעוץ אורתודונטי']);

    const caregivers = page.getByRole('list', { name: 'המטפלים במרפאה' }).getByRole('listitem');
    expect(await caregivers.count()).toBe(4);
    const cohen = caregivers.filter({ hasText: 'ד"ר יעל כהן' });
    expect(await cohen.innerText()).toContain('מס׳ רישיון: 1-23456');
    expect(await cohen.locator('bdi').last().innerText()).toMatch(slotFormat);
    // Shown short, said in words: weekday, day, month name, year and time, and only once.
    const cohenSaid = await cohen.ariaSnapshot();
    expect(cohenSaid).toContain(`התור הפנוי הקרוב: ${await saidNextSlot('he')}`);
    expect(cohenSaid).not.toMatch(/\d{2}\.\d{2}\.\d{4}/);
    const peretz = caregivers.filter({ hasText: 'ד"ר נועה פרץ' });
    expect(await peretz.innerText()).toContain('אין כרגע תורים פנויים');
    // The licence number never breaks; a photo-less avatar shows the name's initial,
    // not the title's ("ד" of ד"ר), as on the booking page.
    for (const licence of await caregivers.getByText(/^\d-\d+$/).all()) {
      expect(await licence.evaluate((el) => getComputedStyle(el).whiteSpace)).toBe('nowrap');
    }
    const avraham = caregivers.filter({ hasText: 'ד"ר מיכל אברהם' });
    expect(await avraham.locator('.MuiAvatar-root').innerText()).toBe('מ');

    const contact = page.getByRole('region', { name: 'פרטי התקשרות' });
    expect(
      await contact.getByRole('link', { name: 'טלפון: 03-5551234' }).getAttribute('href'),
    ).toBe('tel:035551234');
    expect(
      await contact
        .getByRole('link', { name: 'דוא״ל: info@demo-clinic.example' })
        .getAttribute('href'),
    ).toBe('mailto:info@demo-clinic.example');

    const rows = page.getByRole('table', { name: 'שעות פעילות' }).getByRole('row');
    expect(await rows.count()).toBe(7);
    expect(await rows.first().innerText()).toMatch(/ראשון\s+08:00 - 19:00/);
    // Said "08:00 עד 19:00", not "08:00 minus 19:00".
    await page.getByRole('row', { name: 'ראשון 08:00 עד 19:00', exact: true }).waitFor();
    expect(await rows.nth(5).innerText()).toMatch(/שישי\s+08:00 - 13:00/);
    expect(await rows.last().innerText()).toMatch(/שבת\s+סגור/);

    const book = page.getByRole('link', { name: 'קביעת תור' });
    expect(await book.getAttribute('href')).toBe('/login/1?next=booking');
    expect(await page.getByRole('link', { name: 'התקשרו למרפאה' }).getAttribute('href')).toBe(
      'tel:035551234',
    );
    expect(await page.getByText('אין כרגע תורים פנויים אצל המטפלים במרפאה').count()).toBe(0);
    await context.close();
  });

  it('on a phone: one column, the 50 px logo, the book button before the details', async () => {
    const { context, page } = await newPage(browser(), { viewport: 'mobile' });
    await page.goto(`${baseUrl}/clinic/1`);
    await page.getByRole('heading', { level: 1, name: clinic1 }).waitFor();

    expect((await page.getByTestId('clinic-logo').boundingBox())?.width).toBe(50);
    const book = await page.getByRole('link', { name: 'קביעת תור' }).boundingBox();
    const types = await page.getByRole('heading', { name: 'סוגי טיפולים' }).boundingBox();
    expect(book && types && book.y < types.y).toBe(true);
    // Nothing is wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    await saveScreenshot(page, 'clinic-phone-he');
    await context.close();
  });

  it('in English', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en' });
    await page.goto(`${baseUrl}/clinic/1/${encodeURIComponent('מרפאת-שיניים-לב-העיר')}`);
    await page.getByRole('heading', { level: 1, name: clinic1 }).waitFor();
    // The server's HTML is Hebrew; the app renders the English page over it.
    await page.getByRole('link', { name: 'Book an appointment' }).waitFor();
    expect(await page.locator('html').getAttribute('dir')).toBe('ltr');
    expect(await page.getByRole('heading', { level: 2 }).allInnerTexts()).toEqual([
      'Appointment types',
      'Caregivers',
      'Contact details',
      // The clinic's title for its hours is the default heading's Hebrew: translated.
      'Opening hours',
    ]);
    expect(await page.getByRole('link', { name: 'Book an appointment' }).getAttribute('href')).toBe(
      '/login/1?next=booking',
    );
    await page.getByRole('link', { name: 'Call the clinic' }).waitFor();
    await page.getByRole('link', { name: 'Phone: 03-5551234' }).waitFor();
    const rows = page.getByRole('table').getByRole('row');
    expect(await rows.last().innerText()).toMatch(/Saturday\s+Closed/);
    await page.getByRole('row', { name: 'Sunday 08:00 to 19:00', exact: true }).waitFor();
    // The next free time in English words.
    const caregivers = page.getByRole('list', { name: 'Caregivers' }).getByRole('listitem');
    expect(await caregivers.first().ariaSnapshot()).toContain(
      `Next available: ${await saidNextSlot('en')}`,
    );
    await saveScreenshot(page, 'clinic-phone-en');
    await context.close();
  });

  it('a clinic with no free slots says so instead of offering to book', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl}/clinic/2`);
    await page.getByRole('heading', { level: 1, name: clinic2 }).waitFor();

    await page.getByText('אין כרגע תורים פנויים אצל המטפלים במרפאה').waitFor();
    expect(await page.getByRole('link', { name: 'קביעת תור' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'התקשרו למרפאה' }).getAttribute('href')).toBe(
      'tel:048551234',
    );
    const caregivers = page.getByRole('list', { name: 'המטפלים במרפאה' }).getByRole('listitem');
    expect(await caregivers.count()).toBeGreaterThan(0);
    for (const text of await caregivers.allInnerTexts()) {
      expect(text).toContain('אין כרגע תורים פנויים');
    }
    // No cover and no logo: the default cover; the opening hours get the default title.
    expect(await page.getByTestId('clinic-hero').getAttribute('src')).toMatch(/default-cover/);
    await page.waitForFunction(() =>
      [...document.images].every((img) => img.complete && img.naturalWidth > 0),
    );
    await page.getByRole('table', { name: 'שעות פעילות' }).waitFor();
    await context.close();
  });

  it.each(['/clinic/999', '/clinic/999/אין-כזו', '/clinic/abc'])(
    '%s: not found, with a way home',
    async (path) => {
      const { context, page } = await newPage(browser());
      await page.goto(`${baseUrl}${path}`);
      await page.getByRole('heading', { level: 1, name: 'המרפאה לא נמצאה' }).waitFor();
      expect(await page.title()).toBe('המרפאה לא נמצאה');
      await page.getByRole('link', { name: 'לדף הבית' }).click();
      await page.waitForURL(`${baseUrl}/`);
      await context.close();
    },
  );
});

const clinicAxeCases = axeCases(['/clinic/1', '/clinic/2', '/clinic/999']);

describe('clinic page: axe (WCAG 2.1 A/AA and best practices)', () => {
  it.each(clinicAxeCases)(
    '$path in $lang on $viewport has no violations',
    async ({ path, lang, viewport }) => {
      const { context, page } = await newPage(browser(), { lang, viewport });
      await page.goto(`${baseUrl}${path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      // The server's HTML is Hebrew: in English, check the page the app rendered over it.
      await page.getByRole('button', { name: lang === 'en' ? 'Language' : 'שפה' }).waitFor();
      await expectNoAxeViolations(page);
      await context.close();
    },
  );
});
