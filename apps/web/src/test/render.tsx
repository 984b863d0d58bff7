import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import en from '../app/i18n/en.json';
import he from '../app/i18n/he.json';
import { initI18n } from '../app/i18n/init';
import { AppProviders } from '../app/providers';
import { routerProviderProps } from '../app/router';
import type { Language } from '../lib/languages';

interface Options {
  language?: Language;
  /** For fake timers: `{ advanceTimers: vi.advanceTimersByTime }`. */
  userOptions?: Parameters<typeof userEvent.setup>[0];
}

/** Renders with the real providers (i18n, theme, RTL cache, query client). */
export function renderWithProviders(
  ui: ReactElement,
  { language = 'he', userOptions }: Options = {},
) {
  window.localStorage.setItem('lang', language);
  // Both languages at once: a test renders synchronously in the one it asks for.
  const i18n = initI18n({ texts: { he, en } });
  const user = userEvent.setup(userOptions);
  return { i18n, user, ...render(<AppProviders i18n={i18n}>{ui}</AppProviders>) };
}

export function renderRoutes(
  routes: RouteObject[],
  { initialEntries = ['/'], ...options }: Options & { initialEntries?: string[] } = {},
) {
  const router = createMemoryRouter(routes, { initialEntries });
  return {
    router,
    ...renderWithProviders(<RouterProvider router={router} {...routerProviderProps} />, options),
  };
}
