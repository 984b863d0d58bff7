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
        '<meta name="marpe-parent-site" content="https://marpe.example/">' +
        '<meta name="marpe-card-frame-base" content="https://direct.tranzila.com/">',
    );

    expect(readConfig(doc, 'http://localhost:5173')).toEqual({
      publicOrigin: 'https://app.marpe.example',
      parentSiteUrl: 'https://marpe.example/',
      apiBase: '/api',
      cardFrameBaseUrl: 'https://direct.tranzila.com',
      meta: null,
    });
  });

  it('falls back to the page origin without them', () => {
    expect(readConfig(documentWith(''), 'http://localhost:5173')).toEqual({
      publicOrigin: 'http://localhost:5173',
      parentSiteUrl: 'http://localhost:5173/',
      apiBase: '/api',
      cardFrameBaseUrl: 'http://localhost:5173/api/sandbox',
      meta: null,
    });
  });

  it('reads the Meta app of the WhatsApp page, only when it is whole', () => {
    const app =
      '<meta name="marpe-meta-app-id" content="1234">' +
      '<meta name="marpe-meta-config-id" content="5678">';
    const sdk =
      '<meta name="marpe-meta-sdk-url" content="https://connect.facebook.net/en_US/sdk.js">';

    expect(readConfig(documentWith(app + sdk), 'http://localhost:5173').meta).toEqual({
      appId: '1234',
      configId: '5678',
      sdkUrl: 'https://connect.facebook.net/en_US/sdk.js',
    });
    expect(readConfig(documentWith(app), 'http://localhost:5173').meta).toBeNull();
  });

  it('takes a card frame path on the page origin', () => {
    const doc = documentWith('<meta name="marpe-card-frame-base" content="/api/sandbox/">');

    expect(readConfig(doc, 'http://127.0.0.1:4000').cardFrameBaseUrl).toBe(
      'http://127.0.0.1:4000/api/sandbox',
    );
  });
});
