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

  it('tells a patient what Marpe is for and that the way to their clinic is its link', () => {
    renderLanding('he');

    const patients = screen.getByRole('region', { name: 'למטופלים' });
    expect(
      within(patients).getByRole('heading', { level: 3, name: 'איך מגיעים לדף של המרפאה?' }),
    ).toBeInTheDocument();
    expect(within(patients).getByText(/^המרפאה שולחת לכם קישור במסרון/)).toBeInTheDocument();
    expect(
      within(patients).getByText(/^לא מוצאים את הקישור\? פנו למרפאה שלכם/),
    ).toBeInTheDocument();
    // A clinic's people are sent to the parent site.
    expect(
      screen.getByRole('link', { name: 'מנהלים מרפאה? מידע על מרפא למרפאות' }),
    ).toHaveAttribute('href', 'https://marpe.example/');
  });

  it('says it in English too', () => {
    renderLanding('en');

    const patients = screen.getByRole('region', { name: 'For patients' });
    expect(
      within(patients).getByRole('heading', { name: "How do I reach my clinic's page?" }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: 'Run a clinic? About Marpe for clinics' }),
    ).toBeVisible();
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
