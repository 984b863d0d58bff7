import type { GetFormResponse } from '@marpe/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../app/i18n/init';
import { AppProviders, createQueryClient } from '../../app/providers';
import { configureApiClient } from '../../lib/api-client';
import { apiError, json, stubApi } from '../../test/fake-api';
import { renderRoutes } from '../../test/render';
import { intakeFormQueryKey } from './api/get-form';
import { IntakeFormPage } from './intake-form-page';
import { formFixture } from './test/form-fixture';

const routes: RouteObject[] = [
  { path: 'q/:token', element: <IntakeFormPage /> },
  { path: 'completed', element: <h1>completed</h1> },
  { path: 'expired', element: <h1>expired</h1> },
];

beforeEach(() => {
  configureApiClient({ baseUrl: '/api' });
  window.scrollTo = vi.fn();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function open(token = 'tok') {
  return renderRoutes(routes, { initialEntries: [`/q/${token}`] });
}

describe('intake form page', () => {
  it('fills, validates, reveals a field by condition, and submits', async () => {
    const api = stubApi({
      'POST /api/get-form': () => json({ data: formFixture(), draft: null, clinicId: 1 }),
      'POST /api/save-form-draft': () => json({ status: 'ok' }),
      'POST /api/submit': () => json({ status: 'ok' }),
    });
    const { user, router } = open();

    expect(await screen.findByRole('heading', { level: 1, name: 'שלום דנה' })).toBeVisible();
    expect(screen.getByRole('img', { name: 'לוגו המרפאה' })).toHaveAttribute('src', '/logo.png');
    const name = screen.getByRole('textbox', { name: 'שם מלא' });
    expect(name).toHaveValue('דנה');
    expect(name).toBeRequired();
    // The clinic's HTML keeps its text, not its script or handlers.
    expect(screen.getByText('לב').tagName).toBe('B');
    expect(document.querySelector('script, img[onerror]')).toBeNull();

    await user.clear(name);
    await user.type(screen.getByRole('textbox', { name: 'דוא״ל' }), 'not-an-email');
    await user.type(screen.getByRole('textbox', { name: 'טלפון' }), '0501234567');
    expect(screen.getByRole('textbox', { name: 'טלפון' })).toHaveValue('050-1234567');
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'מעשן/ת' }));
    const packs = screen.getByRole('combobox', { name: 'כמה חפיסות ביום' });
    expect(within(packs).getByRole('option', { name: 'בחירה' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'הבא' }));
    const summary = await screen.findByRole('alert');
    expect(
      within(summary)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['שם מלא', 'דוא״ל', 'כמה חפיסות ביום']);
    expect(window.scrollTo).toHaveBeenCalledWith({ top: 0 });
    expect(screen.getByRole('textbox', { name: 'שם מלא' })).toHaveAccessibleDescription('שדה חובה');
    expect(screen.getByRole('textbox', { name: 'דוא״ל' })).toHaveAccessibleDescription(
      'כתובת הדוא״ל אינה תקינה',
    );

    await user.type(screen.getByRole('textbox', { name: 'שם מלא' }), 'דנה לוי');
    await user.clear(screen.getByRole('textbox', { name: 'דוא״ל' }));
    await user.type(screen.getByRole('textbox', { name: 'דוא״ל' }), 'dana@example.com');
    await user.selectOptions(packs, '2');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'הבא' }));

    const heading = await screen.findByRole('heading', { level: 1, name: 'אישור' });
    await waitFor(() => expect(heading).toHaveFocus());
    // The finished step went to the server as the link's draft; nothing stays on the device.
    await waitFor(() =>
      expect(api.callsTo('POST /api/save-form-draft').at(-1)?.body).toMatchObject({
        token: 'tok',
        stepIndex: 1,
        inputData: { email: 'dana@example.com' },
      }),
    );
    expect(
      await screen.findByText('התשובות נשמרו. אפשר להמשיך גם ממכשיר אחר דרך אותו קישור.'),
    ).toBeVisible();
    expect(JSON.stringify({ ...window.localStorage })).not.toMatch(/dana@example|דנה/);

    // Back and forth keeps the answers.
    await user.click(screen.getByRole('button', { name: 'הקודם' }));
    expect(await screen.findByRole('textbox', { name: 'שם מלא' })).toHaveValue('דנה לוי');
    await user.click(screen.getByRole('button', { name: 'הבא' }));

    await user.click(await screen.findByRole('checkbox', { name: 'אני מאשר/ת' }));
    await user.click(screen.getByRole('button', { name: 'שליחה' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/completed'));
    // The completed page names the link's clinic.
    expect(router.state.location.search).toBe('?clinic=1');
    expect(api.callsTo('POST /api/submit')[0]?.body).toEqual({
      token: 'tok',
      inputData: {
        fullName: 'דנה לוי',
        email: 'dana@example.com',
        phone: '050-1234567',
        smoker: true,
        packs: '2',
        agree: true,
      },
    });
    expect(JSON.stringify({ ...window.localStorage })).not.toMatch(/dana@example|דנה/);
  }, 20_000);

  it("comes back to the draft's step and answers, on this device or another", async () => {
    stubApi({
      'POST /api/get-form': () =>
        json({
          data: formFixture(),
          draft: { inputData: { fullName: 'שמור' }, stepIndex: 1 },
          clinicId: 1,
        }),
      'POST /api/save-form-draft': () => json({ status: 'ok' }),
    });
    const { user } = open();
    expect(await screen.findByRole('heading', { level: 1, name: 'אישור' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'הקודם' }));
    expect(await screen.findByRole('textbox', { name: 'שם מלא' })).toHaveValue('שמור');
  });

  it('disables both buttons and shows a spinner while submitting', async () => {
    let answer: (response: Response) => void = () => undefined;
    stubApi({
      'POST /api/get-form': () =>
        json({
          data: formFixture(),
          draft: { inputData: { fullName: 'x', agree: true }, stepIndex: 1 },
          clinicId: 1,
        }),
      'POST /api/submit': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    const { user, router } = open();
    await user.click(await screen.findByRole('button', { name: 'שליחה' }));
    expect(screen.getByRole('button', { name: 'שליחה' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'הקודם' })).toBeDisabled();
    expect(screen.getByText('שולח…')).toHaveAttribute('role', 'status');
    expect(screen.getByRole('progressbar', { hidden: true })).toBeInTheDocument();
    answer(json({ status: 'ok' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/completed'));
  });

  it('says out loud when the answers could not be saved, and keeps them on screen', async () => {
    stubApi({
      'POST /api/get-form': () => json({ data: formFixture(), draft: null, clinicId: 1 }),
      'POST /api/save-form-draft': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    const { user } = open();
    const name = await screen.findByRole('textbox', { name: 'שם מלא' });
    await user.clear(name);
    await user.type(name, 'דנה כהן');
    const message = await screen.findByText(
      'אין חיבור, והתשובות עדיין לא נשמרו. ננסה שוב מעצמנו; נא לא לסגור את הדף.',
      {},
      { timeout: 3000 },
    );
    expect(message.closest('[role="status"]')).not.toBeNull();
    expect(name).toHaveValue('דנה כהן');
  });

  it('a load failure offers a reload', async () => {
    const api = stubApi({
      'POST /api/get-form': [
        () => apiError(500, 'internal'),
        () => apiError(500, 'internal'),
        () => json({ data: formFixture(), draft: null, clinicId: 1 }),
      ],
    });
    const { user } = open();
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: 'שגיאה בטעינת הטופס' },
        { timeout: 4000 },
      ),
    ).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'טעינה מחדש' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'שלום דנה' })).toBeVisible();
    expect(api.callsTo('POST /api/get-form').length).toBeGreaterThanOrEqual(2);
  });

  it('a 404 on load goes to the expired page', async () => {
    stubApi({ 'POST /api/get-form': () => apiError(404, 'form_not_found') });
    const { router } = open('gone');
    await waitFor(() => expect(router.state.location.pathname).toBe('/expired'));
  });

  it('a 404 on submit goes to the expired page', async () => {
    stubApi({
      'POST /api/get-form': () =>
        json({
          data: formFixture(),
          draft: { inputData: { fullName: 'x', agree: true }, stepIndex: 1 },
          clinicId: 1,
        }),
      'POST /api/submit': () => apiError(404, 'form_not_found'),
    });
    const { user, router } = open();
    await user.click(await screen.findByRole('button', { name: 'שליחה' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/expired'));
    // Naming the link's clinic there.
    expect(router.state.location.search).toBe('?clinic=1');
  });

  it('lays out left to right when the first step has is_ltr', async () => {
    const form = formFixture();
    const [first, ...rest] = form.schema;
    if (!first) throw new Error('no first step');
    form.schema = [{ ...first, is_ltr: true, title: 'Hello' }, ...rest];
    stubApi({ 'POST /api/get-form': () => json({ data: form, draft: null, clinicId: 1 }) });
    open();
    const heading = await screen.findByRole('heading', { level: 1, name: 'Hello' });
    expect(heading.closest('[dir]')).toHaveAttribute('dir', 'ltr');
  });

  it("in English, our buttons, counter and messages are English while the clinic's questions stay Hebrew", async () => {
    stubApi({
      'POST /api/get-form': () => json({ data: formFixture(), draft: null, clinicId: 1 }),
      'POST /api/save-form-draft': () => json({ status: 'ok' }),
    });
    const { user } = renderRoutes(routes, { initialEntries: ['/q/tok'], language: 'en' });

    const heading = await screen.findByRole('heading', { level: 1, name: 'שלום דנה' });
    // The clinic's texts: Hebrew, right to left, named as Hebrew for screen readers.
    expect(heading.closest('[dir]')).toHaveAttribute('dir', 'rtl');
    expect(heading.closest('[lang]')).toHaveAttribute('lang', 'he');
    // Ours: English, each in its own direction inside the Hebrew form.
    const counter = screen.getByText('Step 1 of 2');
    expect(counter).toHaveAttribute('lang', 'en');
    expect(counter).toHaveAttribute('dir', 'ltr');
    expect(screen.queryByRole('button', { name: 'הבא' })).not.toBeInTheDocument();

    await user.clear(screen.getByRole('textbox', { name: 'שם מלא' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    const summary = await screen.findByRole('alert');
    expect(within(summary).getByText('Please correct these fields:')).toHaveAttribute('dir', 'ltr');
    expect(screen.getByRole('textbox', { name: 'שם מלא' })).toHaveAccessibleDescription(
      'Required field',
    );
    await user.type(screen.getByRole('textbox', { name: 'שם מלא' }), 'דנה לוי');
    await user.click(screen.getByRole('button', { name: 'Next' }));

    await screen.findByRole('heading', { level: 1, name: 'אישור' });
    expect(screen.getByRole('button', { name: 'Back' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Send form' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'שליחה' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'הקודם' })).not.toBeInTheDocument();
  }, 20_000);

  it.each([
    ['he', 'יום.חודש.שנה'],
    ['en', 'DD.MM.YYYY'],
  ] as const)(
    'in %s, a date field hints its format in the page language and takes 01.12.2026 or 01/12/2026 as dots',
    async (language, hint) => {
      const form = formFixture();
      const [first, ...rest] = form.schema;
      if (!first) throw new Error('no first step');
      form.schema = [
        {
          ...first,
          fields: [
            {
              name: 'visit',
              type: 'text',
              title: 'תאריך הביקור',
              mask: '##/##/####',
              placeholder: 'DD/MM/YYYY',
              validations: ['dateFormat'],
            },
          ],
        },
        ...rest,
      ];
      stubApi({
        'POST /api/get-form': () =>
          json({
            data: form,
            // Kept as an earlier version of the form wrote it.
            draft: { inputData: { visit: '02/03/2024' }, stepIndex: 0 },
            clinicId: 1,
          }),
        'POST /api/save-form-draft': () => json({ status: 'ok' }),
      });
      const { user } = renderRoutes(routes, { initialEntries: ['/q/tok'], language });
      const field = await screen.findByRole('textbox', { name: 'תאריך הביקור' });
      expect(field).toHaveAttribute('placeholder', hint);
      expect(field).toHaveValue('02.03.2024');
      for (const typed of ['01.12.2026', '01/12/2026', '01122026']) {
        await user.clear(field);
        await user.type(field, typed);
        expect(field).toHaveValue('01.12.2026');
      }
      await user.clear(field);
      await user.type(field, '31.02.2026');
      await user.click(screen.getByRole('button', { name: language === 'he' ? 'הבא' : 'Next' }));
      expect(field).toHaveAccessibleDescription(
        language === 'he'
          ? 'התאריך אינו תקין (יום.חודש.שנה)'
          : 'The date is not valid (DD.MM.YYYY)',
      );
    },
    20_000,
  );

  it('renders the form at once when the server rendered the page with its answer, and hydrates onto it', async () => {
    const api = stubApi({ 'POST /api/save-form-draft': () => json({ status: 'ok' }) });
    const answer: GetFormResponse = {
      data: formFixture(),
      draft: { inputData: { fullName: 'שמור', smoker: true }, stepIndex: 0 },
      clinicId: 1,
    };
    // As the page's data seeds the query client, once on the server and once in the browser.
    const app = () => {
      const queryClient = createQueryClient();
      queryClient.setQueryData(intakeFormQueryKey('tok'), answer);
      const router = createMemoryRouter(routes, { initialEntries: ['/q/tok'] });
      return (
        <AppProviders i18n={initI18n()} queryClient={queryClient}>
          <RouterProvider router={router} />
        </AppProviders>
      );
    };
    const container = document.createElement('div');
    document.body.append(container);
    container.innerHTML = renderToString(app());
    const field = (name: string) => container.querySelector<HTMLInputElement>(`[name="${name}"]`);
    expect(container.querySelector('h1')?.textContent).toBe('שלום דנה');
    expect(field('fullName')?.value).toBe('שמור');
    expect(field('smoker')?.checked).toBe(true);
    expect(container.querySelector('select[name="packs"]')).not.toBeNull();
    expect(container.querySelector('b')?.textContent).toBe('לב');

    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const recoverable = vi.fn();
    const nameField = field('fullName');
    let root!: ReturnType<typeof hydrateRoot>;
    await act(async () => {
      root = hydrateRoot(container, app(), { onRecoverableError: recoverable });
    });
    // The same elements, now React's: nothing was rendered again, nothing differed.
    expect(field('fullName')).toBe(nameField);
    expect(recoverable).not.toHaveBeenCalled();
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
    // The form came with the page: not asked for again. (Only this route: a draft save that an
    // earlier test's page left on its timer may land here, as it would in a browser.)
    expect(api.callsTo('POST /api/get-form')).toHaveLength(0);
    act(() => root.unmount());
    container.remove();
  });
});
