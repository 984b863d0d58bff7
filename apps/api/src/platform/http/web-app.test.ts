import { describe, expect, it } from 'vitest';
import { compileIndexTemplate, escapeHtmlAttribute } from './web-app.js';

const config = { publicOrigin: 'https://app.example.com', parentSiteUrl: 'https://example.com/' };

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
        '<link rel="canonical" href="https://app.example.com/clinic/1">' +
        '<title>t</title></head></html>',
    );
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

describe('escapeHtmlAttribute', () => {
  it('escapes the five special characters', () => {
    expect(escapeHtmlAttribute(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });
});
