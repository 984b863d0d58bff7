import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Outlet, type RouteObject } from 'react-router';
import { usePageTitle } from '../lib/page-title';
import { renderRoutes } from '../test/render';
import { NavigationGuard } from './navigation-guard';

function TitledPage() {
  usePageTitle('Dr Smile');
  return <h1>Titled</h1>;
}

const routes: RouteObject[] = [
  {
    element: (
      <>
        <NavigationGuard publicOrigin="https://app.marpe.example" />
        <Outlet />
      </>
    ),
    children: [
      { index: true, element: <h1>Home</h1> },
      {
        path: 'clinic/:clinicId/:clinicName?',
        handle: { name: 'clinic-page', titleKey: 'legal.terms' },
        element: <h1>Clinic</h1>,
      },
      { path: 'plain', element: <h1>Plain</h1> },
      {
        path: 'titled',
        handle: { name: 'titled', titleKey: 'legal.terms' },
        element: <TitledPage />,
      },
    ],
  },
];

function canonical() {
  return document.head.querySelectorAll<HTMLLinkElement>('link[rel="canonical"]');
}

afterEach(() => {
  canonical().forEach((link) => link.remove());
  document.title = '';
});

describe('NavigationGuard', () => {
  it('titles the page from the route handle, in the current language', async () => {
    const { i18n } = renderRoutes(routes, { initialEntries: ['/clinic/7'] });

    await waitFor(() => expect(document.title).toBe('תנאי שימוש'));
    await act(() => i18n.changeLanguage('en'));
    expect(document.title).toBe('Terms of use');
  });

  it('falls back to the default title', async () => {
    const { i18n } = renderRoutes(routes, { initialEntries: ['/plain'] });

    await waitFor(() => expect(document.title).toBe('מרפאה חכמה'));
    await act(() => i18n.changeLanguage('en'));
    expect(document.title).toBe('Smart Clinic');
  });

  it("prefers a page's own title while it is shown, in any language", async () => {
    const { i18n, router } = renderRoutes(routes, { initialEntries: ['/titled'] });

    await waitFor(() => expect(document.title).toBe('Dr Smile'));
    await act(() => i18n.changeLanguage('en'));
    expect(document.title).toBe('Dr Smile');
    await act(() => router.navigate('/plain'));
    expect(document.title).toBe('Smart Clinic');
  });

  it('creates the canonical link and keeps it on the full path', async () => {
    const { router } = renderRoutes(routes, { initialEntries: ['/plain'] });

    await waitFor(() =>
      expect(canonical()[0]).toHaveAttribute('href', 'https://app.marpe.example/plain'),
    );

    await act(() => router.navigate('/clinic/7/Dr-Smile?caregiverId=3#top'));
    expect(canonical()).toHaveLength(1);
    expect(canonical()[0]).toHaveAttribute(
      'href',
      'https://app.marpe.example/clinic/7/Dr-Smile?caregiverId=3',
    );
  });

  it('updates the canonical link the server rendered instead of adding one', async () => {
    const serverLink = document.createElement('link');
    serverLink.rel = 'canonical';
    serverLink.href = 'https://app.marpe.example/old';
    document.head.append(serverLink);

    renderRoutes(routes, { initialEntries: ['/clinic/7'] });

    await waitFor(() =>
      expect(serverLink).toHaveAttribute('href', 'https://app.marpe.example/clinic/7'),
    );
    expect(canonical()).toHaveLength(1);
  });

  it("sends the clinic id 'local' to the home page, replacing the entry", async () => {
    const { router } = renderRoutes(routes, { initialEntries: ['/clinic/local'] });

    expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(router.state.historyAction).toBe('REPLACE');
  });
});
