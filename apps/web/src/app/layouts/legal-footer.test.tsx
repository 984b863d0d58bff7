import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../../test/render';
import { LegalFooter } from './legal-footer';

function renderFooter(path: string, language: 'he' | 'en' = 'he') {
  return renderRoutes([{ path: '*', element: <LegalFooter /> }], {
    language,
    initialEntries: [path],
  });
}

describe('LegalFooter', () => {
  it('has the three legal links separated by hidden bars', () => {
    renderFooter('/clinic/1');

    const footer = screen.getByRole('contentinfo');
    const links = within(footer).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['מדיניות פרטיות', '/privacy'],
      ['תנאי שימוש', '/terms'],
      ['הצהרת נגישות', '/accessibility'],
    ]);
    links.forEach((link) => expect(link).not.toHaveAttribute('aria-current'));
    const bars = within(footer).getAllByText('|');
    expect(bars).toHaveLength(2);
    bars.forEach((bar) => expect(bar).toHaveAttribute('aria-hidden', 'true'));
  });

  it('speaks English and marks the page it is on', () => {
    renderFooter('/accessibility', 'en');

    const footer = screen.getByRole('contentinfo');
    expect(
      within(footer)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Privacy policy', 'Terms of use', 'Accessibility statement']);
    expect(within(footer).getByRole('link', { name: 'Accessibility statement' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  it('opens the legal pages in a new tab from a payment link, which leaving would lose', () => {
    renderFooter('/p/some-token');

    expect(
      within(screen.getByRole('contentinfo'))
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href'), link.getAttribute('target')]),
    ).toEqual([
      ['מדיניות פרטיות (נפתח בכרטיסייה חדשה)', '/privacy', '_blank'],
      ['תנאי שימוש (נפתח בכרטיסייה חדשה)', '/terms', '_blank'],
      ['הצהרת נגישות (נפתח בכרטיסייה חדשה)', '/accessibility', '_blank'],
    ]);
  });
});
