import type { IntegrationPatient } from '@marpe/shared';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { expectNoAxeViolations, settled, useBrowser } from './support/browser';
import { deskFetch, demoFrontDesk, signedInDeskPage } from './support/desk';
import { withCheckDigit } from './support/patients';

const baseUrl = inject('baseUrl');
const browser = useBrowser();

/** A demo patient (apps/api/src/demo/demo-clinic.ts), put back as found at the end. */
const MERAV = { idNumber: withCheckDigit('31266904'), first: 'מירב', last: 'אזולאי' };

const words = {
  he: {
    title: 'מטופלים',
    search: 'חיפוש מטופלים',
    correct: 'תיקון הפרטים',
    lastName: 'שם משפחה',
    save: 'שמירת התיקון',
    cancel: 'ביטול',
    upcoming: 'תורים קרובים',
  },
  en: {
    title: 'Patients',
    search: 'Search patients',
    correct: 'Correct the details',
    lastName: 'Last name',
    save: 'Save the correction',
    cancel: 'Cancel',
    upcoming: 'Upcoming appointments',
  },
} as const;

async function checkPages(page: Page, lang: 'he' | 'en') {
  const w = words[lang];
  await page.goto(`${baseUrl}/desk/patients`);
  await page.getByRole('heading', { level: 1, name: w.title }).waitFor();
  // Nothing typed: every patient, by name.
  await page.getByRole('link', { name: `${MERAV.first} ${MERAV.last}` }).waitFor();
  await expectNoAxeViolations(page);

  await page.goto(`${baseUrl}/desk/patients/${MERAV.idNumber}`);
  await page.getByRole('heading', { level: 1, name: `${MERAV.first} ${MERAV.last}` }).waitFor();
  await page.getByRole('heading', { level: 2, name: w.upcoming }).waitFor();
  await page.getByRole('table', { name: w.upcoming }).waitFor();
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: w.correct }).click();
  const dialog = page.getByRole('dialog');
  await settled(page, '[role="dialog"]');
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: w.cancel }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('the desk: patients', () => {
  it('front desk finds a patient by typing, opens them and corrects a name; axe he and en', async () => {
    const { context, page } = await signedInDeskPage(browser(), demoFrontDesk);
    context.setDefaultTimeout(10_000);
    try {
      await checkPages(page, 'he');

      // Find by typing: the list narrows to the patient, whose row opens their page.
      await page.goto(`${baseUrl}/desk/patients`);
      await page.getByRole('searchbox', { name: words.he.search }).fill('אזול');
      await page.waitForURL((url) => url.searchParams.get('q') === 'אזול');
      const results = page.getByRole('table', { name: /אזול/ });
      await results.getByRole('link', { name: `${MERAV.first} ${MERAV.last}` }).click();
      await page.waitForURL(`**/desk/patients/${MERAV.idNumber}`);
      await page.getByRole('heading', { level: 1, name: `${MERAV.first} ${MERAV.last}` }).waitFor();

      // A name left empty is refused at the field, what was typed kept; then corrected.
      await page.getByRole('button', { name: words.he.correct }).click();
      const dialog = page.getByRole('dialog');
      await settled(page, '[role="dialog"]');
      const lastName = dialog.getByRole('textbox', { name: words.he.lastName });
      await lastName.fill(' ');
      await dialog.getByRole('button', { name: words.he.save }).click();
      await dialog.getByText('שדה חובה').waitFor();
      await lastName.fill('אזולאי-כהן');
      await dialog.getByRole('button', { name: words.he.save }).click();
      await dialog.waitFor({ state: 'detached' });
      await page
        .getByRole('status')
        .filter({ hasText: 'הפרטים של מירב אזולאי-כהן תוקנו' })
        .waitFor();
      await page.getByRole('heading', { level: 1, name: 'מירב אזולאי-כהן' }).waitFor();
      const stored = await deskFetch<IntegrationPatient>(
        page,
        `/api/integration/patients/${MERAV.idNumber}`,
      );
      expect(stored.body.last_name).toBe('אזולאי-כהן');

      // Book from the patient's page: the diary says for whom.
      await page.getByRole('link', { name: 'קביעת תור' }).click();
      await page.waitForURL((url) => url.pathname.endsWith('/desk/diary'));
      await page.getByText('קביעת תור למירב אזולאי-כהן: בחרו מועד ביומן.').waitFor();
    } finally {
      await deskFetch(page, `/api/integration/patients/${MERAV.idNumber}`, {
        method: 'PATCH',
        body: { first_name: MERAV.first, last_name: MERAV.last },
      });
    }

    await context.close();

    const english = await signedInDeskPage(browser(), demoFrontDesk, { lang: 'en' });
    english.context.setDefaultTimeout(10_000);
    await checkPages(english.page, 'en');
    await english.context.close();
  }, 60_000);
});
