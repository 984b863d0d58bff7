import { describe, expect, it } from 'vitest';
import { escapeHtmlAttribute } from './html-text.js';
import { cardFrameBaseForPage, compileIndexTemplate } from './web-app.js';

const config = {
  publicOrigin: 'https://app.example.com',
  parentSiteUrl: 'https://example.com/',
  cardFrameBaseUrl: 'https://direct.tranzila.com',
  whatsapp: {
    graphApiBaseUrl: 'https://graph.facebook.com',
    appId: '1234',
    configId: '5678',
    appSecret: 'secret',
    sdkUrl: 'https://connect.facebook.net/en_US/sdk.js',
  },
};

describe('compileIndexTemplate', () => {
  it('replaces the marker with the metas and a per-path canonical link', () => {
    const render = compileIndexTemplate(
      '<html><head><!--marpe:head--><title>t</title></head></html>',
      config,
    );
    expect(render('/clinic/1')).toBe(
      '<html><head>' +
        '<meta name="marpe-public-origin" content="https://app.example.com">' +
        '<meta name="marpe-parent-site" content="https://example.com/">' +
        '<meta name="marpe-card-frame-base" content="https://direct.tranzila.com">' +
        '<meta name="marpe-meta-app-id" content="1234">' +
        '<meta name="marpe-meta-config-id" content="5678">' +
        '<meta name="marpe-meta-sdk-url" content="https://connect.facebook.net/en_US/sdk.js">' +
        '<link rel="canonical" href="https://app.example.com/clinic/1">' +
        '<title>t</title></head></html>',
    );
  });

  it('leaves the Meta app out when the server has none', () => {
    const render = compileIndexTemplate('<head><!--marpe:head--></head>', {
      ...config,
      whatsapp: { ...config.whatsapp, appId: null, configId: null, appSecret: null },
    });
    expect(render('/')).not.toContain('marpe-meta-');
  });

  it('escapes the path', () => {
    const render = compileIndexTemplate('<head><!--marpe:head--></head>', config);
    expect(render(`/a"><script>'`)).toContain(
      'href="https://app.example.com/a&quot;&gt;&lt;script&gt;&#39;"',
    );
  });

  it('falls back to the end of <head> when the marker is missing', () => {
    const render = compileIndexTemplate('<head><title>t</title></head><body></body>', config);
    expect(render('/')).toMatch(
      /<title>t<\/title><meta .*<link rel="canonical"[^>]*><\/head><body>/,
    );
  });
});

describe('cardFrameBaseForPage', () => {
  it('keeps a frame elsewhere and writes one on our own origin as a path', () => {
    expect(cardFrameBaseForPage(config)).toBe('https://direct.tranzila.com');
    expect(
      cardFrameBaseForPage({
        publicOrigin: 'https://app.example.com',
        cardFrameBaseUrl: 'https://app.example.com/api/sandbox',
      }),
    ).toBe('/api/sandbox');
    expect(
      cardFrameBaseForPage({
        publicOrigin: 'https://app.example.com',
        cardFrameBaseUrl: 'https://app.example.com',
      }),
    ).toBe('/');
  });
});

describe('escapeHtmlAttribute', () => {
  it('escapes the five special characters', () => {
    expect(escapeHtmlAttribute(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });
});
