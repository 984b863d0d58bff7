import { screen, waitFor, within } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '../../lib/api-client';
import { apiError, json, stubApi } from '../../test/fake-api';
import { renderRoutes } from '../../test/render';
import { IntakeFormPage } from './intake-form-page';
import { useFormStore } from './stores/form-store';
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
  useFormStore.getState().reset();
});

function open(token = 'tok') {
  return renderRoutes(routes, { initialEntries: [`/q/${token}`] });
}

describe('intake form page', () => {
  it('fills, validates, reveals a field by condition, and submits', async () => {
    const api = stubApi({
      'POST /api/get-form': () => json({ data: formFixture(), draft: null }),
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
    expect(useFormStore.getState().currentStepIndex).toBe(1);
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
        json({ data: formFixture(), draft: { inputData: { fullName: 'שמור' }, stepIndex: 1 } }),
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
      'POST /api/get-form': () => json({ data: formFixture(), draft: null }),
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
        () => json({ data: formFixture(), draft: null }),
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
        }),
      'POST /api/submit': () => apiError(404, 'form_not_found'),
    });
    const { user, router } = open();
    await user.click(await screen.findByRole('button', { name: 'שליחה' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/expired'));
  });

  it('lays out left to right when the first step has is_ltr', async () => {
    const form = formFixture();
    const [first, ...rest] = form.schema;
    if (!first) throw new Error('no first step');
    form.schema = [{ ...first, is_ltr: true, title: 'Hello' }, ...rest];
    stubApi({ 'POST /api/get-form': () => json({ data: form, draft: null }) });
    open();
    const heading = await screen.findByRole('heading', { level: 1, name: 'Hello' });
    expect(heading.closest('[dir]')).toHaveAttribute('dir', 'ltr');
  });
});
