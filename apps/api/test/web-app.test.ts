// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import { dataPageOf } from '../src/platform/http/server-pages.js';
import { canonicalClinicAddress, PARENT_SITE_PLACEHOLDER } from '../src/platform/http/web-app.js';
import { DEMO_CLINIC_ID } from '../src/demo/demo-clinic.js';
import { formRequests } from '../src/platform/db/schema.js';
import { demoFormInitData, seedDemoForm } from '../src/demo/demo-form.js';
import { seedDemoClinic } from '../src/demo/seed-demo-clinic.js';
import { buildTestApp, testConfig, useTestDatabase, xsrfPair } from './helper.js';

const indexHtml = `<!doctype html>
<html lang="he" dir="rtl">
  <head>
    <meta charset="UTF-8" />
    <!--marpe:head-->
    <title>Marpe</title>
    <script type="module" src="/assets/index-abc123.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>
`;
const script = `console.log(${JSON.stringify('x'.repeat(2000))});\n`;

// Static serving does not depend on the database engine: one PGlite is enough here.

/** The page data a page was sent with (`<script type="application/json" id="marpe-data">`). */
function pageData(body: string): unknown {
  const json = /<script type="application\/json" id="marpe-data">([^<]*)<\/script>/.exec(body)?.[1];
  return JSON.parse(json ?? '');
}

describe('serving the built web app', () => {
  const database = useTestDatabase('pglite');
  let distDir: string;
  let app: App;
  let unbuiltApp: App;

  beforeAll(async () => {
    distDir = await mkdtemp(path.join(tmpdir(), 'marpe-web-'));
    await mkdir(path.join(distDir, 'assets'));
    await mkdir(path.join(distDir, 'demo'));
    await writeFile(path.join(distDir, 'index.html'), indexHtml);
    await writeFile(path.join(distDir, 'assets', 'index-abc123.js'), script);
    await writeFile(path.join(distDir, 'assets', 'index-abc123.js.br'), brotliCompressSync(script));
    await writeFile(path.join(distDir, 'assets', 'index-abc123.js.gz'), gzipSync(script));
    await mkdir(path.join(distDir, 'prerendered'));
    await writeFile(
      path.join(distDir, 'prerendered', 'index.html'),
      indexHtml.replace(
        '<div id="root"></div>',
        `<div id="root"><h1>Landing</h1><a href="${PARENT_SITE_PLACEHOLDER}">home</a></div>`,
      ),
    );
    await writeFile(
      path.join(distDir, 'prerendered', 'privacy.html'),
      indexHtml.replace('<div id="root"></div>', '<div id="root"><h1>Privacy</h1></div>'),
    );
    await writeFile(
      path.join(distDir, 'prerendered', 'routes.json'),
      JSON.stringify([
        { path: '/privacy', head: '<link rel="modulepreload" href="/assets/privacy.js">' },
        {
          path: '/clinic/:clinicId/:clinicName?',
          head: '<link rel="modulepreload" href="/assets/clinic.js">',
        },
        {
          path: '/booking/:clinicId',
          head: '<link rel="modulepreload" href="/assets/booking.js">',
        },
      ]),
    );
    await writeFile(path.join(distDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    await writeFile(
      path.join(distDir, 'demo', 'clinic-logo.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg"/>',
    );

    const config = testConfig({
      PUBLIC_ORIGIN: 'https://app.example.com',
      PARENT_SITE_URL: 'https://example.com/?a=1&b="2"',
    });
    app = await buildTestApp(database.current.handle, { config, webDistDir: distDir });
    unbuiltApp = await buildTestApp(database.current.handle, {
      webDistDir: path.join(distDir, 'does-not-exist'),
    });
    await Promise.all([app.ready(), unbuiltApp.ready()]);
  });
  afterAll(async () => {
    await Promise.all([app?.close(), unbuiltApp?.close()]);
    await rm(distDir, { recursive: true, force: true });
  });

  it('serves index.html at / with the metas and canonical link filled in, never cached', async () => {
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).not.toContain('<!--marpe:head-->');
    expect(response.body).toContain(
      '<meta name="marpe-public-origin" content="https://app.example.com">',
    );
    expect(response.body).toContain(
      '<meta name="marpe-parent-site" content="https://example.com/?a=1&amp;b=&quot;2&quot;">',
    );
    expect(response.body).toContain('<link rel="canonical" href="https://app.example.com/">');
    // Injected inside <head>, where the marker was.
    expect(response.body.indexOf('rel="canonical"')).toBeLessThan(response.body.indexOf('</head>'));
  });

  it('answers a client-side route with index.html and its full path as canonical link', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/clinic/1/%D7%9C%D7%91?utm=x',
      headers: { accept: 'text/html,application/xhtml+xml' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain(
      '<link rel="canonical" href="https://app.example.com/clinic/1/%D7%9C%D7%91?utm=x">',
    );
  });

  it('never reflects markup from the request path', async () => {
    const response = await app.inject({ method: 'GET', url: '/a"><script>x</script>' });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain('<script>x');
  });

  it('falls back to index.html for HEAD and for Accept */*', async () => {
    const head = await app.inject({ method: 'HEAD', url: '/booking/1' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
    const any = await app.inject({ method: 'GET', url: '/login/1', headers: { accept: '*/*' } });
    expect(any.statusCode).toBe(200);
  });

  it('does not answer non-HTML requests for unknown paths with index.html', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/missing.png',
      headers: { accept: 'image/avif,image/webp' },
    });
    expect(response.statusCode).toBe(404);
  });

  it('serves hashed assets as immutable, brotli when accepted', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(script);
  });

  it('serves gzip or plain assets by Accept-Encoding', async () => {
    const gz = await app.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const plain = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('answers a missing asset with 404, not index.html', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/assets/missing.js',
      headers: { accept: 'text/html,*/*' },
    });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('<html');
  });

  it('serves other public files with a short cache', async () => {
    for (const url of ['/favicon.svg', '/demo/clinic-logo.svg']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('public, max-age=3600');
      expect(response.headers['content-type']).toMatch(/^image\/svg\+xml/);
    }
  });

  it('serves /index.html through the template as well', async () => {
    const response = await app.inject({ method: 'GET', url: '/index.html' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('marpe-public-origin');
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('keeps answering unknown /api paths with JSON 404', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/nope',
      headers: { accept: 'text/html' },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'not_found' });
  });

  it('serves a prerendered page at its own address, the parent site filled in', async () => {
    const landing = await app.inject({ method: 'GET', url: '/?utm=sms' });
    expect(landing.statusCode).toBe(200);
    expect(landing.headers['cache-control']).toBe('no-cache');
    expect(landing.body).toContain('<h1>Landing</h1>');
    expect(landing.body).toContain(
      '<a href="https://example.com/?a=1&amp;b=&quot;2&quot;">home</a>',
    );
    expect(landing.body).not.toContain(PARENT_SITE_PLACEHOLDER);
    expect(landing.body).toContain(
      '<link rel="canonical" href="https://app.example.com/?utm=sms">',
    );
    expect(landing.body).toContain('<meta name="marpe-public-origin"');
    const privacy = await app.inject({ method: 'GET', url: '/privacy' });
    expect(privacy.body).toContain('<h1>Privacy</h1>');
    // Any other page gets the empty shell; the prerendered files are not public files.
    const clinic = await app.inject({ method: 'GET', url: '/clinic/1' });
    expect(clinic.body).toContain('<div id="root"></div>');
    const file = await app.inject({
      method: 'GET',
      url: '/prerendered/privacy.html',
      headers: { accept: 'text/html' },
    });
    expect(file.body).not.toContain('<h1>Privacy</h1>');
  });

  it('preloads the code of the route a page address matches', async () => {
    const preload = (name: string) => `<link rel="modulepreload" href="/assets/${name}.js">`;
    for (const url of ['/clinic/1', '/clinic/1/%D7%9C%D7%91?utm=x', '/CLINIC/1/', '/booking/7']) {
      const response = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      const name = url.toLowerCase().startsWith('/clinic') ? 'clinic' : 'booking';
      expect(response.body, url).toContain(`${preload(name)}</head>`);
      expect(response.body, url).toContain('<link rel="canonical"');
    }
    for (const url of ['/clinic', '/clinic/1/a/b', '/booking/7/confirmation', '/login/1']) {
      const response = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.body, url).not.toContain('rel="modulepreload"');
    }
    // A prerendered page is sent as prerendered (its links are in it already).
    const privacy = await app.inject({ method: 'GET', url: '/privacy' });
    expect(privacy.body).toContain('<h1>Privacy</h1>');
    expect(privacy.body).not.toContain(preload('privacy'));
  });

  it("knows a page rendered with a clinic's data by its address, as the router does", () => {
    const clinicPage = (page: string, key: number) => ({ page, data: 'clinic', key });
    expect(dataPageOf('/clinic/1')).toEqual(clinicPage('clinic-page', 1));
    expect(dataPageOf('/clinic/12/%D7%9C%D7%91/')).toEqual(clinicPage('clinic-page', 12));
    expect(dataPageOf('/Clinic/2147483647')).toEqual(clinicPage('clinic-page', 2147483647));
    expect(dataPageOf('/login/3/?next=booking')).toEqual(clinicPage('login-page', 3));
    expect(dataPageOf('/booking/4?caregiverId=7&date=2026-12-01')).toEqual(
      clinicPage('booking-page', 4),
    );
    expect(dataPageOf('/appointments/5')).toEqual(clinicPage('appointments-page', 5));
    expect(dataPageOf('/booking/6/Confirmation/')).toEqual(
      clinicPage('booking-confirmation-page', 6),
    );
    expect(dataPageOf('/q/tok')).toEqual({
      page: 'intake-form-page',
      data: 'intakeForm',
      key: 'tok',
    });
    for (const path of [
      '/clinic',
      '/clinic/0',
      '/clinic/01',
      '/clinic/local',
      '/clinic/1/a/b',
      '/clinic/2147483648',
      '/login/1/name',
      '/login/0',
      '/booking/1/other',
      '/clinic/1/confirmation/x',
      // Its title is the rescheduling one, not what is rendered for everybody.
      '/booking/1?reschedule=12',
      '/appointments/1/x',
      '/payments/1',
    ]) {
      expect(dataPageOf(path), path).toBeNull();
    }
  });

  it("names the clinic page's canonical address when the request's name part is not", () => {
    const he = (text: string) => encodeURIComponent(text);
    expect(canonicalClinicAddress(`/clinic/1/${he('מרפאת שיניים')}%20${he('״לב״')}?from=sms`)).toBe(
      `/clinic/1/${he('מרפאת-שיניים-לב')}?from=sms`,
    );
    expect(canonicalClinicAddress('/Clinic/7/Dr%20Smile/')).toBe('/clinic/7/Dr-Smile');
    // A name already canonical, no name, another page, a name that does not decode: no redirect.
    for (const url of [
      `/clinic/1/${he('מרפאת-שיניים')}`,
      '/clinic/1',
      '/clinic/1/',
      '/login/1',
      '/clinic/1/%E0%A4%A',
      '/clinic/0/a%20b',
    ]) {
      expect(canonicalClinicAddress(url), url).toBeNull();
    }
  });

  it('sends a clinic address whose name part is not canonical to the one that is', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/clinic/1/Dr%20Smile?utm=sms',
      headers: { accept: 'text/html' },
    });
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe('/clinic/1/Dr-Smile?utm=sms');
  });

  it('answers /robots.txt and /sitemap.xml itself, not with the SPA', async () => {
    const robots = await app.inject({ method: 'GET', url: '/robots.txt' });
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(robots.body).toBe(
      'User-agent: *\nDisallow: /api/\n\nSitemap: https://app.example.com/sitemap.xml\n',
    );
    const sitemap = await app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(sitemap.statusCode).toBe(200);
    expect(sitemap.headers['content-type']).toBe('application/xml; charset=utf-8');
    for (const page of ['/', '/privacy', '/terms', '/accessibility']) {
      expect(sitemap.body).toContain(`<loc>https://app.example.com${page}</loc>`);
    }
    expect(sitemap.body).not.toContain('<html');
  });

  it('keeps token pages out of indexes and out of Referer headers', async () => {
    for (const url of [
      '/q/abc',
      '/p/abc',
      '/tranzila/abc?results=x',
      '/whatsapp-signup/12',
      '/whatsapp-signup',
    ]) {
      const response = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['x-robots-tag'], url).toBe('noindex, nofollow');
      expect(response.headers['referrer-policy'], url).toBe('no-referrer');
      expect(response.body, url).toContain('<meta name="robots" content="noindex, nofollow">');
      expect(response.body, url).toContain('<meta name="referrer" content="no-referrer">');
    }
    for (const url of ['/', '/clinic/1', '/privacy', '/qr', '/pay/1']) {
      const response = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.headers['x-robots-tag'], url).toBeUndefined();
      expect(response.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      expect(response.body, url).not.toContain('noindex');
    }
  });

  it('answers 503 with build instructions when the web app is not built', async () => {
    const response = await unbuiltApp.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.body).toContain('npm run build');
    const health = await unbuiltApp.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
  });
});

// The renderer is the web build's (apps/web/dist-ssr); a stand-in here checks the server's part:
// which data it renders with, where the HTML and the JSON go, what it keeps, what falls back.
describe('rendering the clinic page on the server', () => {
  const database = useTestDatabase('pglite');
  let root: string;
  let app: App;
  const renders = () => (globalThis as { marpeTestRenders?: string[] }).marpeTestRenders ?? [];

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'marpe-ssr-'));
    const distDir = path.join(root, 'dist');
    await mkdir(path.join(distDir, 'prerendered', 'shells'), { recursive: true });
    await mkdir(path.join(root, 'dist-ssr'));
    await writeFile(path.join(distDir, 'index.html'), indexHtml);
    // The web build's shells: the waking script and the app's code as its data (ADR 025).
    const writeShell = (name: string, code: Record<string, unknown>) =>
      writeFile(
        path.join(distDir, 'prerendered', 'shells', `${name}.html`),
        indexHtml.replace(
          '<script type="module" src="/assets/index-abc123.js"></script>',
          '<script type="module" crossorigin src="/assets/wake-on-demand-abc.js"></script>' +
            `<script type="application/json" id="marpe-code">${JSON.stringify({ entry: '/assets/index-abc123.js', ...code })}</script>`,
        ),
      );
    await writeShell('clinic-page', { preload: ['/assets/clinic.js'] });
    await writeShell('login-page', { preload: [], withoutSession: true });
    await writeShell('booking-page', { preload: ['/assets/booking.js'], withoutSession: true });
    await writeShell('payment-request-page', { preload: ['/assets/payment.js'] });
    await writeShell('intake-form-page', { preload: ['/assets/intake-form.js'] });
    await writeShell('payment-result-page', { preload: ['/assets/result.js'], leavesFrame: true });
    await writeFile(
      path.join(root, 'dist-ssr', 'prerender.js'),
      `export async function prerender(path, data) {
        (globalThis.marpeTestRenders ??= []).push(path);
        if (path.startsWith('/login/')) {
          return { html: '<h1>login: ' + data.clinic.clinic.name + '</h1>', title: 'Login' };
        }
        if (path.startsWith('/booking/')) {
          return { html: '<h1>booking: ' + data.clinic.clinic.name + '</h1>', title: 'Book' };
        }
        if (data.paymentResult) {
          const status = data.paymentResult.data?.status ?? 'unknown';
          const live = status === 'pending' || status === 'verifying';
          return { html: '<h1>result: ' + status + '</h1>', title: status, live };
        }
        if (data.paymentRequest) {
          return { html: '<h1>' + data.paymentRequest.data.amount + '</h1>', title: 'Pay' };
        }
        if (data.intakeForm) {
          const step = data.intakeForm.data.draft?.stepIndex ?? 0;
          return { html: '<h1>step ' + step + '</h1>', title: data.intakeForm.data.data.schema[step].title };
        }
        return { html: '<h1>' + data.clinic.clinic.name + '</h1>', title: data.clinic.clinic.name + ' <&>' };
      }`,
    );
    await seedDemoClinic(database.current.handle.db);
    app = await buildTestApp(database.current.handle, { webDistDir: distDir });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('sends the page with its data in the shell that wakes on demand, rendering it once', async () => {
    const data = await app.inject({ method: 'GET', url: '/api/clinic/1' });
    const name = (data.json() as { clinic: { name: string } }).clinic.name;
    for (const url of ['/clinic/1', '/clinic/1/whatever?utm=sms']) {
      const response = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain(`<div id="root"><h1>${name}</h1></div>`);
      expect(response.body).toContain(`<title>${name} &lt;&amp;&gt;</title>`);
      expect(pageData(response.body)).toEqual({ clinic: data.json() });
      expect(response.body).toContain(
        '<script type="module" crossorigin src="/assets/wake-on-demand-abc.js"></script>',
      );
      expect(response.body).not.toContain('src="/assets/index-abc123.js"');
      expect(response.body).toContain(`<link rel="canonical" href="http`);
    }
    // The clinic's JSON did not change between the two: one rendering.
    expect(renders()).toEqual(['/clinic/1']);
  });

  it("renders the login page with the clinic's data in its own shell, once per change", async () => {
    const data = await app.inject({ method: 'GET', url: '/api/clinic/1' });
    const name = (data.json() as { clinic: { name: string } }).clinic.name;
    for (const url of ['/login/1', '/login/1?next=booking']) {
      const response = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain(`<div id="root"><h1>login: ${name}</h1></div>`);
      expect(response.body).toContain('<title>Login</title>');
      expect(response.body).toContain('"withoutSession":true');
      expect(pageData(response.body)).toEqual({ clinic: data.json() });
    }
    expect(renders().filter((rendered) => rendered === '/login/1')).toHaveLength(1);
  });

  it("renders the booking page with the clinic's data in its own shell, unless it reschedules", async () => {
    const data = await app.inject({ method: 'GET', url: '/api/clinic/1' });
    const name = (data.json() as { clinic: { name: string } }).clinic.name;
    for (const url of ['/booking/1', '/booking/1?caregiverId=1&appointmentTypeId=2']) {
      const response = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain(`<div id="root"><h1>booking: ${name}</h1></div>`);
      expect(response.body).toContain('<title>Book</title>');
      expect(response.body).toContain('"preload":["/assets/booking.js"],"withoutSession":true');
      expect(response.body).toContain(`${url.replaceAll('&', '&amp;')}">`);
    }
    expect(renders().filter((rendered) => rendered === '/booking/1')).toHaveLength(1);
    const rescheduling = await app.inject({
      method: 'GET',
      url: '/booking/1?reschedule=3',
      headers: { accept: 'text/html' },
    });
    expect(rescheduling.body).toContain('<div id="root"></div>');
    expect(rescheduling.body).not.toContain('marpe-data');
  });

  it.each(['/appointments/1', '/booking/1/confirmation'])(
    'sends the login page as %s, saying where it was rendered',
    async (url) => {
      const data = await app.inject({ method: 'GET', url: '/api/clinic/1' });
      const name = (data.json() as { clinic: { name: string } }).clinic.name;
      const response = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain(`<div id="root"><h1>login: ${name}</h1></div>`);
      expect(response.body).toContain('"withoutSession":true');
      expect(response.body).toContain(`${url}">`);
      expect(pageData(response.body)).toEqual({ clinic: data.json(), path: '/login/1' });
    },
  );

  it("renders the payment page per request with the link's request, never kept", async () => {
    const link = await app.payments.createLink({
      clinicId: DEMO_CLINIC_ID,
      amountAgorot: 125_050,
      // Replacement patterns too ($&, $'): the page's text goes in as it is.
      patientNameRemarks: "</script><script>alert(1)</script> $& $' $$",
    });
    const api = await app.inject({
      method: 'POST',
      url: '/api/get-payment-request',
      payload: { token: link.token },
      ...(await xsrfPair(app)),
    });
    for (let i = 0; i < 2; i += 1) {
      const response = await app.inject({
        method: 'GET',
        url: `/p/${link.token}`,
        headers: { accept: 'text/html' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['x-robots-tag']).toBe('noindex, nofollow');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.body).toContain('<div id="root"><h1>1250.5</h1></div>');
      // The same data as the API's answer, and no way out of the JSON's <script> element.
      expect(pageData(response.body)).toEqual({
        paymentRequest: { token: link.token, data: (api.json() as { data: unknown }).data },
      });
      expect(response.body).toContain('"preload":["/assets/payment.js"]');
    }
    expect(renders().filter((rendered) => rendered === `/p/${link.token}`)).toHaveLength(2);
  });

  it('leaves an unknown payment link to the page, which goes to the expired page', async () => {
    const response = await app.inject({ method: 'GET', url: '/p/not-a-real-token' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toContain('<div id="root"></div>');
    expect(response.body).not.toContain('marpe-data');
  });

  it("renders the payment result per request with the link's request, live while confirming", async () => {
    const link = await app.payments.createLink({ clinicId: DEMO_CLINIC_ID, amountAgorot: 5_000 });
    const api = await app.inject({
      method: 'POST',
      url: '/api/get-payment-request',
      payload: { token: link.token },
      ...(await xsrfPair(app)),
    });
    const url = `/tranzila/${link.token}?results=${encodeURIComponent('Response=000&index=3')}`;
    const response = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    // The card frame returns here: our own page may frame it.
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    // Still pending: the page asks until it is confirmed, so it says its app must load now.
    expect(response.body).toContain('<div id="root" data-live><h1>result: pending</h1></div>');
    expect(response.body).toContain('<title>pending</title>');
    expect(pageData(response.body)).toEqual({
      paymentResult: { token: link.token, data: (api.json() as { data: unknown }).data },
    });
    expect(response.body).toContain('"leavesFrame":true');
    // Rendered at the address it was asked for, query and all, as the router reads it.
    expect(renders()).toContain(url);
  });

  it('renders the result of a link that is not valid with null, which the page says', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/tranzila/not-a-real-token?results=Response%3D000',
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<div id="root"><h1>result: unknown</h1></div>');
    expect(pageData(response.body)).toEqual({
      paymentResult: { token: 'not-a-real-token', data: null },
    });
  });

  it("renders the form page per request with the link's form and draft, never kept", async () => {
    const templateId = await seedDemoForm(database.current.handle.db);
    const link = await app.forms.createLink({
      clinicId: DEMO_CLINIC_ID,
      templateId,
      initData: { ...demoFormInitData, firstName: '</script><script>alert(1)</script>' },
    });
    const xsrf = await xsrfPair(app);
    const saved = await app.inject({
      method: 'POST',
      url: '/api/save-form-draft',
      payload: { token: link.token, inputData: { first_name: 'דנה' }, stepIndex: 1 },
      ...xsrf,
    });
    expect(saved.statusCode).toBe(200);
    const api = await app.inject({
      method: 'POST',
      url: '/api/get-form',
      payload: { token: link.token },
      ...xsrf,
    });
    for (let i = 0; i < 2; i += 1) {
      const response = await app.inject({
        method: 'GET',
        url: `/q/${link.token}?utm=sms`,
        headers: { accept: 'text/html' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['x-robots-tag']).toBe('noindex, nofollow');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.body).toContain('<meta name="robots" content="noindex, nofollow">');
      expect(response.body).toContain('<div id="root"><h1>step 1</h1></div>');
      expect(response.body).toContain('<title>היסטוריה רפואית</title>');
      // The same data as the API's answer, draft included, and no way out of the JSON's <script>.
      expect(pageData(response.body)).toEqual({
        intakeForm: { token: link.token, data: api.json() },
      });
      expect(response.body).toContain(
        '<script type="module" crossorigin src="/assets/wake-on-demand-abc.js"></script>',
      );
    }
    // Rendered at the address the browser shows, its query too, as the app hydrates it there.
    expect(renders().filter((rendered) => rendered === `/q/${link.token}?utm=sms`)).toHaveLength(2);
  });

  it("gives a chat's link preview the plain page: no patient data, and the form stays unopened", async () => {
    const templateId = await seedDemoForm(database.current.handle.db);
    const link = await app.forms.createLink({
      clinicId: DEMO_CLINIC_ID,
      templateId,
      initData: demoFormInitData,
    });
    const opened = async () =>
      (
        await database.current.handle.db
          .select({ openedAt: formRequests.openedAt })
          .from(formRequests)
          .where(eq(formRequests.id, link.requestId))
      )[0]?.openedAt ?? null;
    for (const agent of [
      'WhatsApp/2.23.20.0 A',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'TelegramBot (like TwitterBot)',
    ]) {
      for (const url of [`/q/${link.token}`, `/p/not-a-real-token`, `/tranzila/${link.token}`]) {
        const response = await app.inject({
          method: 'GET',
          url,
          headers: { accept: 'text/html', 'user-agent': agent },
        });
        expect(response.statusCode).toBe(200);
        expect(response.body).toContain('<div id="root"></div>');
        expect(response.body).not.toContain('marpe-data');
        expect(response.body).not.toContain(demoFormInitData.firstName);
      }
    }
    expect(renders()).not.toContain(`/q/${link.token}`);
    expect(renders()).not.toContain(`/tranzila/${link.token}`);
    expect(await opened()).toBeNull();

    // An address the link's limited route does not answer (another letter case) reaches only
    // the navigation fallback: the plain page, never its data.
    const unlimited = await app.inject({
      method: 'GET',
      url: `/Q/${link.token}`,
      headers: { accept: 'text/html' },
    });
    expect(unlimited.body).toContain('<div id="root"></div>');
    expect(unlimited.headers['cache-control']).toBe('no-store');
    expect(await opened()).toBeNull();

    // The patient's own browser: rendered with the form, and the desk sees it opened.
    const response = await app.inject({
      method: 'GET',
      url: `/q/${link.token}`,
      headers: {
        accept: 'text/html',
        'user-agent':
          'Mozilla/5.0 (Linux; Android 14; SM-A546B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36',
      },
    });
    expect(response.body).toContain('marpe-data');
    expect(await opened()).not.toBeNull();
  });

  it('compresses the pages it renders as the client accepts, and says they vary by it', async () => {
    const templateId = await seedDemoForm(database.current.handle.db);
    const link = await app.forms.createLink({
      clinicId: DEMO_CLINIC_ID,
      templateId,
      initData: demoFormInitData,
    });
    for (const url of ['/clinic/1', `/q/${link.token}`, '/login/1?next=booking']) {
      const get = (encoding?: string) =>
        app.inject({
          method: 'GET',
          url,
          headers: { accept: 'text/html', ...(encoding && { 'accept-encoding': encoding }) },
        });
      const plain = await get();
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      expect(plain.headers.vary, url).toMatch(/Accept-Encoding/);
      const brotli = await get('gzip, deflate, br, zstd');
      expect(brotli.headers['content-encoding'], url).toBe('br');
      expect(brotli.headers.vary, url).toMatch(/Accept-Encoding/);
      expect(brotli.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      expect(brotliDecompressSync(brotli.rawPayload).toString(), url).toBe(plain.body);
      const gzip = await get('gzip');
      expect(gzip.headers['content-encoding'], url).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).toString(), url).toBe(plain.body);
      expect((await get('identity')).headers['content-encoding'], url).toBeUndefined();
    }
    // JSON is left as it was.
    const api = await app.inject({
      method: 'GET',
      url: '/api/clinic/1',
      headers: { 'accept-encoding': 'br' },
    });
    expect(api.headers['content-encoding']).toBeUndefined();
  });

  it('leaves an unknown or ended form link to the page, which goes to the expired page', async () => {
    const response = await app.inject({ method: 'GET', url: '/q/not-a-real-token' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(response.body).toContain('<div id="root"></div>');
    expect(response.body).not.toContain('marpe-data');
    expect(renders()).not.toContain('/q/not-a-real-token');
  });

  it('limits each address to 120 form pages a minute, like the link API routes', async () => {
    const from = (remoteAddress: string) =>
      app.inject({ method: 'GET', url: '/q/not-a-real-token', remoteAddress });
    const statuses = [];
    for (let i = 0; i < 121; i++) statuses.push((await from('10.9.8.7')).statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(120);
    expect(statuses.filter((status) => status === 429)).toHaveLength(1);
    expect((await from('10.9.8.8')).statusCode).toBe(200);
  });

  it('leaves an unknown clinic to the page: the plain index.html', async () => {
    const response = await app.inject({ method: 'GET', url: '/clinic/999' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<div id="root"></div>');
    expect(response.body).not.toContain('marpe-data');
    expect(renders()).not.toContain('/clinic/999');
  });
});
