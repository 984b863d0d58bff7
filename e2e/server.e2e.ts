import { spawnSync } from 'node:child_process';
import { describe, expect, inject, it } from 'vitest';
import { PUBLIC_ORIGIN } from './support/constants';
import { freePort, repoRoot, serverEntry } from './support/server';

const baseUrl = inject('baseUrl');

describe('production server', () => {
  it('refuses a second server on the same data directory, naming the reason', async () => {
    const port = String(await freePort());
    const second = spawnSync(process.execPath, [serverEntry], {
      cwd: repoRoot,
      env: { ...process.env, DATA_DIR: inject('dataDir'), PORT: port, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(second.status).toBe(1);
    expect(second.stdout + second.stderr).toMatch(/already using DATA_DIR/);
  });

  it('serves index.html uncached with the canonical link of the requested path', async () => {
    const res = await fetch(`${baseUrl}/privacy`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = await res.text();
    expect(html).toContain(`<link rel="canonical" href="${PUBLIC_ORIGIN}/privacy">`);
    // No inline script to run (the CSP allows none); JSON data blocks are never run (ADR 025).
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")[^>]*>/);
    expect(html).toMatch(/<script type="application\/json" id="marpe-code">/);
  });

  it('serves hashed assets pre-compressed with a long cache', async () => {
    const html = await (await fetch(`${baseUrl}/`)).text();
    const entry = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(entry).toBeDefined();
    for (const encoding of ['br', 'gzip']) {
      const res = await fetch(`${baseUrl}${entry}`, { headers: { 'accept-encoding': encoding } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('cache-control')).toContain('immutable');
    }
  });

  it('answers unknown API paths with JSON 404 and client routes with the app', async () => {
    const api = await fetch(`${baseUrl}/api/no-such-thing`);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ code: 'not_found' });
    const client = await fetch(`${baseUrl}/some/client/route`, {
      headers: { accept: 'text/html' },
    });
    expect(client.status).toBe(200);
    expect(await client.text()).toContain('<div id="root">');
  });

  it('sends a content security policy without inline scripts', async () => {
    const csp = (await fetch(`${baseUrl}/`)).headers.get('content-security-policy') ?? '';
    const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
    expect(scriptSrc).toContain("'self'");
    expect(scriptSrc).not.toContain('unsafe-inline');
  });
});
