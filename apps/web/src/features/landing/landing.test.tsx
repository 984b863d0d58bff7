import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../../test/render';
import { LandingFooter } from './landing-footer';
import { LandingPage } from './landing-page';

function renderLanding(language: 'he' | 'en') {
  return renderRoutes(
    [
      {
        path: '/',
        element: (
          <>
            <main>
              <LandingPage parentSiteUrl="https://marpe.example/" />
            </main>
            <LandingFooter />
          </>
        ),
      },
    ],
    { language },
  );
}

describe('landing page', () => {
  it('shows the heading, the tagline and the logo linking to the parent site', () => {
    renderLanding('he');

    expect(
      screen.getByRole('heading', { level: 1, name: 'מרפא – זימון תורים למרפאות שיניים' }),
    ).toBeInTheDocument();
    expect(screen.getByText('קביעת תורים בקלות ובמהירות')).toBeInTheDocument();
    const logoLink = screen.getByRole('link', { name: 'מרפא – לאתר הבית' });
    expect(logoLink).toHaveAttribute('href', 'https://marpe.example/');
    expect(within(logoLink).getByRole('img')).toHaveAttribute('height', '120');
  });

  it('has a footer with the three legal links separated by hidden bars', () => {
    renderLanding('he');

    const footer = screen.getByRole('contentinfo');
    const links = within(footer).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['מדיניות פרטיות', '/privacy'],
      ['תנאי שימוש', '/terms'],
      ['הצהרת נגישות', '/accessibility'],
    ]);
    const bars = within(footer).getAllByText('|');
    expect(bars).toHaveLength(2);
    bars.forEach((bar) => expect(bar).toHaveAttribute('aria-hidden', 'true'));
  });

  it('speaks English when chosen', () => {
    renderLanding('en');

    expect(
      screen.getByRole('heading', {
        level: 1,
        name: 'Marpe – appointment booking for dental clinics',
      }),
    ).toBeInTheDocument();
    expect(screen.getByText('Book appointments easily and quickly')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Marpe – to the home site' })).toBeInTheDocument();
    const footer = screen.getByRole('contentinfo');
    expect(
      within(footer)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Privacy policy', 'Terms of use', 'Accessibility statement']);
  });
});
