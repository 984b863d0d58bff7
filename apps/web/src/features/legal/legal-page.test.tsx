import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../../test/render';
import { accessibilityDocument } from './content/accessibility';
import { privacyDocument } from './content/privacy';
import { termsDocument } from './content/terms';
import { formatUpdated, type LegalDocument } from './legal-document';
import { LegalPage } from './legal-page';

const testDocument: LegalDocument = {
  title: 'מסמך בדיקה',
  updated: { year: 2025, month: 6 },
  sections: [
    {
      heading: 'מבוא',
      blocks: [
        { kind: 'p', text: 'פסקה ראשונה.' },
        { kind: 'ul', items: ['פריט א', 'פריט ב'] },
      ],
    },
    {
      heading: 'יצירת קשר',
      blocks: [
        {
          kind: 'contact',
          label: 'דוא״ל:',
          href: 'mailto:support@marpe.example',
          text: 'support@marpe.example',
        },
        { kind: 'contact', label: 'טלפון:', href: 'tel:+97231234567', text: '03-1234567' },
      ],
    },
  ],
};

function renderLegal(language: 'he' | 'en') {
  return renderRoutes([{ path: '/privacy', element: <LegalPage content={testDocument} /> }], {
    initialEntries: ['/privacy'],
    language,
  });
}

describe('LegalPage', () => {
  it('renders the document as a Hebrew article with headings, paragraphs, lists and contact links', () => {
    renderLegal('he');

    const article = screen.getByRole('article');
    expect(article).toHaveAttribute('lang', 'he');
    expect(article).toHaveAttribute('dir', 'rtl');
    expect(
      within(article).getByRole('heading', { level: 1, name: 'מסמך בדיקה' }),
    ).toBeInTheDocument();
    expect(within(article).getByText('עודכן לאחרונה: יוני 2025')).toBeInTheDocument();
    expect(
      within(article)
        .getAllByRole('heading', { level: 2 })
        .map((heading) => heading.textContent),
    ).toEqual(['מבוא', 'יצירת קשר']);
    expect(within(article).getByText('פסקה ראשונה.').tagName).toBe('P');
    expect(
      within(within(article).getByRole('list'))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['פריט א', 'פריט ב']);
    expect(within(article).getByRole('link', { name: 'support@marpe.example' })).toHaveAttribute(
      'href',
      'mailto:support@marpe.example',
    );
    expect(within(article).getByRole('link', { name: '03-1234567' })).toHaveAttribute(
      'href',
      'tel:+97231234567',
    );
    expect(screen.queryByText('המסמך זמין בעברית בלבד.')).not.toBeInTheDocument();
  });

  it('has a back link home', () => {
    renderLegal('he');

    expect(screen.getByRole('link', { name: 'חזרה' })).toHaveAttribute('href', '/');
  });

  it('says the document is in Hebrew when the interface is English', () => {
    renderLegal('en');

    expect(screen.getByText('This document is available in Hebrew only.')).toBeInTheDocument();
    expect(screen.getByText('Last updated: June 2025')).toBeInTheDocument();
    // The document itself keeps its Hebrew date line.
    expect(within(screen.getByRole('article')).getByText('עודכן לאחרונה: יוני 2025')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('article')).toHaveAttribute('lang', 'he');
  });
});

describe('the legal documents', () => {
  it.each([
    [privacyDocument, 'יוני 2025', 'June 2025'],
    [termsDocument, 'יוני 2025', 'June 2025'],
    [accessibilityDocument, 'יולי 2023', 'July 2023'],
  ])('%#: say when they last changed the same way, under the title', (content, he, en) => {
    const { unmount } = renderRoutes([{ path: '/', element: <LegalPage content={content} /> }]);
    const title = screen.getByRole('heading', { level: 1 });
    expect(title.nextElementSibling).toHaveTextContent(new RegExp(`^עודכן לאחרונה: ${he}$`));
    unmount();
    renderRoutes([{ path: '/', element: <LegalPage content={content} /> }], { language: 'en' });
    expect(screen.getByText(`Last updated: ${en}`)).toBeInTheDocument();
    expect(formatUpdated(content.updated, 'he')).toBe(he);
  });
});
