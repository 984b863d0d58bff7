import { describe, expect, it } from 'vitest';
import { readConfig } from './config';

function documentWith(head: string): Document {
  const doc = document.implementation.createHTMLDocument();
  doc.head.innerHTML = head;
  return doc;
}

describe('readConfig', () => {
  it('reads the meta tags the server writes', () => {
    const doc = documentWith(
      '<meta name="marpe-public-origin" content="https://app.marpe.example/">' +
        '<meta name="marpe-parent-site" content="https://marpe.example/">',
    );

    expect(readConfig(doc, 'http://localhost:5173')).toEqual({
      publicOrigin: 'https://app.marpe.example',
      parentSiteUrl: 'https://marpe.example/',
      apiBase: '/api',
    });
  });

  it('falls back to the page origin without them', () => {
    expect(readConfig(documentWith(''), 'http://localhost:5173')).toEqual({
      publicOrigin: 'http://localhost:5173',
      parentSiteUrl: 'http://localhost:5173/',
      apiBase: '/api',
    });
  });
});
