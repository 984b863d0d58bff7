import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderRoutes } from '../test/render';
import { createMemoryRouter } from 'react-router';
import { createRoutes, loadPages } from './router';

const config = { parentSiteUrl: 'https://marpe.example/', publicOrigin: 'http://localhost:3000' };
// Fresh per test: a router resolves its lazy routes in place.
const routes = () => createRoutes(config);

afterEach(() => {
  document.head.querySelector('link[rel="canonical"]')?.remove();
});

describe('app routes', () => {
  it('renders the landing page at / with the landmarks and the skip link', async () => {
    renderRoutes(routes());

    expect(
      await screen.findByRole('heading', { level: 1, name: 'מרפא – זימון תורים למרפאות שיניים' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main');
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    const skip = screen.getAllByRole('link')[0];
    expect(skip).toHaveAccessibleName('דילוג לתוכן הראשי');
    expect(skip).toHaveAttribute('href', '#main');
    expect(document.title).toBe('מרפאה חכמה');
    expect(document.head.querySelector('link[rel="canonical"]')).toHaveAttribute(
      'href',
      'http://localhost:3000/',
    );
  });

  it('redirects unknown paths to the landing page', async () => {
    const { router } = renderRoutes(routes(), { initialEntries: ['/no/such/page'] });

    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('מרפא – זימון');
    expect(router.state.location.pathname).toBe('/');
  });

  it.each([
    ['/privacy', 'מדיניות פרטיות', 'Privacy policy'],
    ['/terms', 'תנאי שימוש', 'Terms of use'],
    ['/accessibility', 'הצהרת נגישות', 'Accessibility statement'],
    ['/completed', 'טופס נשלח', 'Form sent'],
    ['/expired', 'הקישור אינו תקף', 'This link is not valid'],
  ])('loads %s with its heading and title', async (path, hebrew, english) => {
    const { i18n } = renderRoutes(routes(), { initialEntries: [path] });

    expect(await screen.findByRole('heading', { level: 1, name: hebrew })).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(document.title).toBe(hebrew);
    expect(document.head.querySelector('link[rel="canonical"]')).toHaveAttribute(
      'href',
      `http://localhost:3000${path}`,
    );

    await i18n.changeLanguage('en');
    await waitFor(() => expect(document.title).toBe(english));
  });

  it('moves focus to the new page heading after a navigation', async () => {
    const { user } = renderRoutes(routes());

    const footer = await screen.findByRole('contentinfo');
    await user.click(within(footer).getByRole('link', { name: 'הצהרת נגישות' }));

    const heading = await screen.findByRole('heading', { level: 1, name: 'הצהרת נגישות' });
    await waitFor(() => expect(heading).toHaveFocus());

    await user.click(screen.getByRole('link', { name: 'חזרה' }));
    const landingHeading = await screen.findByRole('heading', {
      level: 1,
      name: 'מרפא – זימון תורים למרפאות שיניים',
    });
    await waitFor(() => expect(landingHeading).toHaveFocus());
  });

  it('skip link moves focus to main', async () => {
    const { user } = renderRoutes(routes());

    await screen.findByRole('contentinfo');
    await user.tab();
    expect(screen.getByRole('link', { name: 'דילוג לתוכן הראשי' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('main')).toHaveFocus();
  });

  it('goes to a page whose code was loaded beforehand at once, without a loading state', async () => {
    const loaded = await loadPages('/privacy', ['terms-page', 'no-such-page']);
    expect([...loaded.keys()]).toEqual(['privacy-page', 'terms-page']);
    const router = createMemoryRouter(createRoutes(config, loaded), {
      initialEntries: ['/privacy'],
    });
    await router.initialize();

    void router.navigate('/terms');
    // No request, no render of the old page in the loading state: the new page is the state now.
    expect(router.state.navigation.state).toBe('idle');
    expect(router.state.location.pathname).toBe('/terms');

    void router.navigate('/accessibility');
    expect(router.state.navigation.state).toBe('loading');
    await waitFor(() => expect(router.state.location.pathname).toBe('/accessibility'));
    router.dispose();
  });
});
