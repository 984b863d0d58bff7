import { screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '../../lib/api-client';
import { clinicFixture } from '../../test/clinic-fixture';
import { json, stubApi } from '../../test/fake-api';
import { renderRoutes } from '../../test/render';
import { CompletedPage } from './completed-page';
import { ExpiredPage } from './expired-page';

function renderWithProviders(
  page: ReactElement,
  { language = 'he', path = '/' }: { language?: 'he' | 'en'; path?: string } = {},
) {
  return renderRoutes([{ path: '/', element: page }], { language, initialEntries: [path] });
}

beforeAll(() => {
  configureApiClient({ baseUrl: '/api' });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('status pages', () => {
  it('completed: says the form was sent', () => {
    renderWithProviders(<CompletedPage />);

    expect(screen.getByRole('heading', { level: 1, name: 'טופס נשלח' })).toBeInTheDocument();
    expect(screen.getByText('הטופס נשלח בהצלחה למרפאה. תודה')).toBeInTheDocument();
    // The check image is decorative.
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });

  it('completed in English', () => {
    renderWithProviders(<CompletedPage />, { language: 'en' });

    expect(screen.getByRole('heading', { level: 1, name: 'Form sent' })).toBeInTheDocument();
    expect(
      screen.getByText('The form was sent to the clinic successfully. Thank you'),
    ).toBeInTheDocument();
  });

  it('expired: tells the patient to ask the clinic for a new link', () => {
    renderWithProviders(<ExpiredPage />);

    expect(screen.getByRole('heading', { level: 1, name: 'הקישור אינו תקף' })).toBeInTheDocument();
    expect(
      screen.getByText('ייתכן שפג תוקפו או שכבר נעשה בו שימוש. אנא פנו למרפאה לקבלת קישור חדש.'),
    ).toBeInTheDocument();
  });

  it('expired in English', () => {
    renderWithProviders(<ExpiredPage />, { language: 'en' });

    expect(
      screen.getByRole('heading', { level: 1, name: 'This link is not valid' }),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        'It may have expired or already been used. Please contact the clinic for a new link.',
      ),
    ).toBeInTheDocument();
  });

  it.each([
    [
      'expired',
      'פג תוקף הקישור',
      'הקישור היה בתוקף לזמן מוגבל. לקבלת קישור חדש, פנו למרפאה.',
      'This link has expired',
    ],
    [
      'cancelled',
      'הקישור בוטל',
      'המרפאה ביטלה את הקישור הזה. לשאלות, פנו למרפאה.',
      'This link was cancelled',
    ],
  ])('a link %s: says so, in both languages', (ended, he, text, en) => {
    const { unmount } = renderWithProviders(<ExpiredPage />, { path: `/?ended=${ended}` });
    expect(screen.getByRole('heading', { level: 1, name: he })).toBeInTheDocument();
    expect(screen.getByText(text)).toBeInTheDocument();
    unmount();
    renderWithProviders(<ExpiredPage />, { path: `/?ended=${ended}`, language: 'en' });
    expect(screen.getByRole('heading', { level: 1, name: en })).toBeInTheDocument();
  });

  it('an unknown ending keeps the plain words', () => {
    renderWithProviders(<ExpiredPage />, { path: '/?ended=lost' });
    expect(screen.getByRole('heading', { level: 1, name: 'הקישור אינו תקף' })).toBeInTheDocument();
  });

  it.each([
    ['completed', <CompletedPage key="c" />],
    ['expired', <ExpiredPage key="e" />],
  ])("%s: names the link's clinic, with a tap-to-call button", async (_, page) => {
    const data = clinicFixture();
    stubApi({ 'GET /api/clinic/1': () => json(data) });
    renderWithProviders(page, { path: '/?clinic=1' });

    expect(await screen.findByText(data.clinic.name)).toBeInTheDocument();
    const call = screen.getByRole('link', { name: `התקשרו למרפאה ${data.clinic.phone}` });
    expect(call.getAttribute('href')).toMatch(/^tel:[\d+]+$/);
    // The words and the number are one run, a space between them (on screen too).
    expect(call).toHaveTextContent(`התקשרו למרפאה ${data.clinic.phone}`);
    expect(screen.getByRole('link', { name: 'לדף המרפאה' })).toHaveAttribute(
      'href',
      `/clinic/${data.clinic.id}`,
    );
  });
});
