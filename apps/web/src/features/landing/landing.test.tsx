import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../../test/render';
import { LandingPage } from './landing-page';

function renderLanding(language: 'he' | 'en') {
  return renderRoutes(
    [
      {
        path: '/',
        element: (
          <main>
            <LandingPage parentSiteUrl="https://marpe.example/" />
          </main>
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
  });
});
