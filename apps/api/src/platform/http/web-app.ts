import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import { clinicPagePath, normaliseClinicName } from '@marpe/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { isAppError } from '../errors.js';
import { isApiPath } from './api-path.js';
import { linkRouteLimit } from './private-answer.js';

/** The literal comment the web build leaves inside <head> for the server to fill. */
export const HEAD_MARKER = '<!--marpe:head-->';

/**
 * Where prerendered pages link to the parent site: the web build cannot know it (ADR 021), so the
 * server puts the configured one in at start-up. Must match `placeholders` in apps/web/src/prerender.tsx.
 */
export const PARENT_SITE_PLACEHOLDER = 'https://marpe-parent-site.invalid/';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const SHORT_CACHE = 'public, max-age=3600';

/** The pages anyone may find through a search engine: the landing and legal pages. */
export const PUBLIC_PAGES = ['/', '/privacy', '/terms', '/accessibility'] as const;

/**
 * Pages whose address is (or carries) a link token given to one patient or clinic: a form, a
 * payment request, a payment result, a WhatsApp connection. Never indexed, never sent on as a
 * referrer. The payment result page sets its referrer policy too; saying it here keeps the HTML
 * and its metas in step.
 */
const tokenPage = /^\/(?:q\/|p\/|tranzila\/|whatsapp-signup(?:[/?]|$))/;

export function isTokenPage(requestPath: string): boolean {
  return tokenPage.test(requestPath);
}

/**
 * robots.txt: everything may be crawled but the API. Token pages are not disallowed here on
 * purpose: a crawler that may not fetch a page never sees its noindex, and could still list the
 * bare address it found elsewhere.
 */
export function robotsTxt(publicOrigin: string): string {
  return `User-agent: *\nDisallow: /api/\n\nSitemap: ${publicOrigin}/sitemap.xml\n`;
}

export function sitemapXml(publicOrigin: string): string {
  const urls = PUBLIC_PAGES.map(
    (page) => `<url><loc>${escapeHtmlAttribute(publicOrigin + page)}</loc></url>`,
  ).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>\n`;
}

/** Answers a client-side route (or declines, returning false, so the caller sends a 404). */
export type NavigationFallback = (request: FastifyRequest, reply: FastifyReply) => boolean;

export function escapeHtmlAttribute(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

/**
 * The card frame's base as the page gets it: the configured URL, or just its path when it is on
 * our own public origin (the demo sandbox), so the page reaches it by whatever name the browser
 * used for the page itself (a second domain, a test server on 127.0.0.1).
 */
export function cardFrameBaseForPage(
  config: Pick<Config, 'publicOrigin' | 'cardFrameBaseUrl'>,
): string {
  const url = new URL(config.cardFrameBaseUrl);
  if (url.origin !== config.publicOrigin) return config.cardFrameBaseUrl;
  return url.pathname.replace(/\/+$/, '') || '/';
}

/**
 * Splits the built index.html around the marker once: the fixed metas go in now, and each
 * request only concatenates its canonical link between the two halves.
 */
export function compileIndexTemplate(
  html: string,
  config: Pick<Config, 'publicOrigin' | 'parentSiteUrl' | 'cardFrameBaseUrl' | 'whatsapp'>,
): (requestPath: string) => string {
  const meta = (name: string, value: string) =>
    `<meta name="${name}" content="${escapeHtmlAttribute(value)}">`;
  const { appId, configId, sdkUrl } = config.whatsapp;
  const metas =
    `<meta name="marpe-public-origin" content="${escapeHtmlAttribute(config.publicOrigin)}">` +
    `<meta name="marpe-parent-site" content="${escapeHtmlAttribute(config.parentSiteUrl)}">` +
    `<meta name="marpe-card-frame-base" content="${escapeHtmlAttribute(cardFrameBaseForPage(config))}">` +
    // The WhatsApp connection page's Meta app; without one the page says it is not available.
    (appId !== null && configId !== null
      ? meta('marpe-meta-app-id', appId) +
        meta('marpe-meta-config-id', configId) +
        meta('marpe-meta-sdk-url', sdkUrl)
      : '');
  let at = html.indexOf(HEAD_MARKER);
  let skip = HEAD_MARKER.length;
  if (at === -1) {
    at = html.indexOf('</head>');
    skip = 0;
  }
  if (at === -1) return () => html;
  const head = html.slice(0, at) + metas;
  const tail = html.slice(at + skip);
  const origin = escapeHtmlAttribute(config.publicOrigin);
  // A token page stays out of indexes, and its token out of the Referer of anything it loads or
  // links to (the headers say the same; the metas survive a saved page).
  const tokenMetas =
    '<meta name="robots" content="noindex, nofollow"><meta name="referrer" content="no-referrer">';
  return (requestPath) =>
    `${head}${isTokenPage(requestPath) ? tokenMetas : ''}<link rel="canonical" href="${origin}${escapeHtmlAttribute(requestPath)}">${tail}`;
}

/** The path of a request URL, without its query. */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * A React Router path pattern as a regular expression over a request path: `:name` is one
 * segment, `:name?` an optional one; a trailing slash and any letter case match, as in the router.
 */
export function routePattern(pattern: string): RegExp {
  const segments = pattern
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => {
      if (segment.startsWith(':')) return segment.endsWith('?') ? '(?:/[^/]+)?' : '/[^/]+';
      return `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
    });
  return new RegExp(`^${segments.join('')}/?$`, 'i');
}

type PageTemplate = (requestPath: string) => string;

/**
 * index.html for each client route the web build listed (dist/prerendered/routes.json), with the
 * route's modulepreload links in its head: its code downloads beside the entry chunk.
 */
async function compileRouteTemplates(
  webDistDir: string,
  html: string,
  config: Parameters<typeof compileIndexTemplate>[1],
): Promise<{ pattern: RegExp; render: PageTemplate }[]> {
  const file = path.join(webDistDir, 'prerendered', 'routes.json');
  if (!existsSync(file)) return [];
  const routes = JSON.parse(await readFile(file, 'utf8')) as { path: string; head: string }[];
  return routes.map((route) => ({
    pattern: routePattern(route.path),
    render: compileIndexTemplate(html.replace('</head>', `${route.head}</head>`), config),
  }));
}

/** The pages rendered on the server with a clinic's public data. */
type ClinicDataPage = 'clinic' | 'login' | 'booking' | 'confirmation' | 'appointments';

/**
 * What the server renders for each: the page at which address, in which shell of the web build.
 * The login, booking and appointments pages as a patient without a session sees them (ADR 025);
 * such a patient's appointments page is the login page, where the app would send them, and so is
 * the booking confirmation page loaded as a page (it shows only what was booked in the same page
 * load; otherwise it sends the patient to their appointments).
 */
const clinicDataRendering: Record<ClinicDataPage, { rendered: string; shell: string }> = {
  clinic: { rendered: 'clinic', shell: 'clinic' },
  login: { rendered: 'login', shell: 'login' },
  booking: { rendered: 'booking', shell: 'booking' },
  confirmation: { rendered: 'login', shell: 'login' },
  appointments: { rendered: 'login', shell: 'login' },
};

/**
 * The clinic page (`/clinic/:id/:name?`), login, booking, booking confirmation
 * (`/booking/:id/confirmation`) or appointments page (`/<page>/:id`) of a request URL, with its
 * clinic id, or null (any other page, an id that cannot exist, or a booking page that
 * reschedules, whose title is not the one rendered for everybody).
 */
export function clinicDataPage(url: string): { page: ClinicDataPage; clinicId: number } | null {
  const [pathname = '', query = ''] = url.split('?', 2);
  const match = /^\/(clinic|login|booking|appointments)\/([1-9]\d{0,9})(\/[^/]+)?\/?$/i.exec(
    pathname,
  );
  if (!match) return null;
  const base = (match[1] ?? '').toLowerCase() as ClinicDataPage;
  const clinicId = Number(match[2]);
  const rest = match[3]?.toLowerCase();
  const page = base === 'booking' && rest === '/confirmation' ? 'confirmation' : base;
  if (clinicId > 2_147_483_647) return null;
  if (rest !== undefined && page !== 'clinic' && page !== 'confirmation') return null;
  if (page === 'booking' && new URLSearchParams(query).has('reschedule')) return null;
  return { page, clinicId };
}

/**
 * The clinic page's address with its name part in canonical form
 * (docs/product/clinic-page.md#address), when the request's is not: the page is then sent there
 * with a permanent redirect, its query kept. Null for any other address, one already canonical, or
 * a name that does not decode.
 */
export function canonicalClinicAddress(url: string): string | null {
  const at = url.indexOf('?');
  const [pathname, query] = at === -1 ? [url, ''] : [url.slice(0, at), url.slice(at)];
  const match = /^\/clinic\/([1-9]\d{0,9})\/([^/]+)\/?$/i.exec(pathname);
  if (!match?.[2]) return null;
  let name: string;
  try {
    name = decodeURIComponent(match[2]);
  } catch {
    return null;
  }
  if (normaliseClinicName(name) === name) return null;
  return `${clinicPagePath({ id: Number(match[1]), name })}${query}`;
}

/** JSON as the text of a <script> element: `<` escaped, so no `</script>` can close it early. */
function scriptJson(json: string): string {
  return json.replaceAll('<', '\\u003c');
}

/**
 * The web build's server renderer (apps/web/src/prerender.tsx): a page's markup and title, and
 * whether it changes by itself (then its app loads at once, ADR 025).
 */
type Prerender = (path: string, data: Record<string, unknown>) => Promise<RenderedPage>;

interface RenderedPage {
  html: string;
  /** The markup's style rules, for <head> (ADR 035). */
  styles?: string;
  title: string;
  live?: boolean;
}

/** Set on #root of a live page: `liveAttribute` in apps/web/src/app/wake-signal.ts. */
const LIVE_ATTRIBUTE = 'data-live';

/**
 * The web build's renderer and the shell it wrote for each page rendered per request
 * (dist/prerendered/shells/<name>.html), or null when the build has no renderer.
 */
async function loadRenderer(
  webDistDir: string,
): Promise<{ prerender: Prerender; shells: Map<string, string> } | null> {
  const file = path.join(webDistDir, '..', 'dist-ssr', 'prerender.js');
  const shellsDir = path.join(webDistDir, 'prerendered', 'shells');
  if (!existsSync(file) || !existsSync(shellsDir)) return null;
  const { prerender } = (await import(pathToFileURL(file).href)) as { prerender: Prerender };
  const shells = new Map<string, string>();
  for (const name of await readdir(shellsDir)) {
    if (name.endsWith('.html')) {
      shells.set(
        name.slice(0, -'.html'.length),
        await readFile(path.join(shellsDir, name), 'utf8'),
      );
    }
  }
  return { prerender, shells };
}

/**
 * A shell with a rendered page in it: its markup in #root, its style rules in <head>, its title,
 * and the data it was rendered with as `<script type="application/json" id="marpe-data">` (data,
 * never run: the CSP keeps `script-src 'self'`), which the browser reads before hydrating.
 */
function fillShell(shell: string, page: RenderedPage, dataJson: string): string {
  // Replaced by functions: a replacement string would read `$&` or `$'` in a patient's or a
  // clinic's text as a pattern.
  return shell
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtmlAttribute(page.title)}</title>`)
    .replace('</head>', () => `${page.styles ?? ''}</head>`)
    .replace(
      '<div id="root"></div>',
      () =>
        `<div id="root"${page.live ? ` ${LIVE_ATTRIBUTE}` : ''}>${page.html}</div>` +
        `<script type="application/json" id="marpe-data">${scriptJson(dataJson)}</script>`,
    );
}

/**
 * Renders a page of one link's data (ADR 021) into the build's shell for it, compiled once: each
 * request only fills in its page (fillShell touches neither metas nor canonical link).
 */
function linkPageRenderer(
  prerender: Prerender,
  shellHtml: string,
  config: Parameters<typeof compileIndexTemplate>[1],
): (requestUrl: string, renderPath: string, pageData: Record<string, unknown>) => Promise<string> {
  const shell = compileIndexTemplate(shellHtml, config);
  return async (requestUrl, renderPath, pageData) =>
    fillShell(shell(requestUrl), await prerender(renderPath, pageData), JSON.stringify(pageData));
}

/**
 * The link token of a payment result address (`/tranzila/:token`, docs/product/payments.md#result),
 * or null for any other address or a token that does not decode.
 */
export function paymentResultToken(url: string): string | null {
  const match = /^\/tranzila\/([^/]+)\/?$/i.exec(pathOf(url));
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

/** Renders a page of a clinic id for a request URL; rejects as the clinic data does. */
type ClinicPageRenderer = (clinicId: number, requestUrl: string) => Promise<string>;

/**
 * A page rendered on the server with a clinic's data (ADR 021): the web build's renderer on the
 * clinic's cached JSON (ADR 003), in the build's shell for it, which loads the app's code when the
 * patient first acts on the page (ADR 025). The HTML is kept per clinic for as long as that JSON
 * stays the same.
 */
function clinicPageRenderer(
  page: ClinicDataPage,
  prerender: Prerender,
  shell: string,
  config: Parameters<typeof compileIndexTemplate>[1],
  clinicDataJson: (clinicId: number) => Promise<string>,
): ClinicPageRenderer {
  const { rendered } = clinicDataRendering[page];
  const pages = new Map<number, { json: string; render: PageTemplate }>();
  return async (clinicId, requestUrl) => {
    const json = await clinicDataJson(clinicId);
    let kept = pages.get(clinicId);
    if (kept?.json !== json) {
      const renderedPath = `/${rendered}/${clinicId}`;
      const html = await prerender(renderedPath, { clinic: JSON.parse(json) });
      // Sent at another address: the app hydrates it at the address it was rendered for.
      const pathJson = rendered === page ? '' : `,"path":${JSON.stringify(renderedPath)}`;
      const filled = fillShell(shell, html, `{"clinic":${json}${pathJson}}`);
      kept = { json, render: compileIndexTemplate(filled, config) };
      pages.set(clinicId, kept);
    }
    return kept.render(requestUrl);
  };
}

/**
 * The pages the web build prerendered (dist/prerendered/<name>.html; `index` is `/`), each
 * compiled like index.html, by address. None when the build made none.
 */
async function compilePrerenderedPages(
  webDistDir: string,
  config: Parameters<typeof compileIndexTemplate>[1],
): Promise<Map<string, PageTemplate>> {
  const dir = path.join(webDistDir, 'prerendered');
  const pages = new Map<string, PageTemplate>();
  if (!existsSync(dir)) return pages;
  const parentSite = escapeHtmlAttribute(config.parentSiteUrl);
  for (const file of await readdir(dir)) {
    if (!file.endsWith('.html')) continue;
    const name = file.slice(0, -'.html'.length);
    const html = (await readFile(path.join(dir, file), 'utf8')).replaceAll(
      PARENT_SITE_PLACEHOLDER,
      parentSite,
    );
    pages.set(name === 'index' ? '/' : `/${name}`, compileIndexTemplate(html, config));
  }
  return pages;
}

function acceptsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  return accept === undefined || accept.includes('text/html') || accept.includes('*/*');
}

function isAssetPath(url: string): boolean {
  return url.startsWith('/assets/');
}

function isNavigation(request: FastifyRequest): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    !isApiPath(request.url) &&
    !isAssetPath(request.url) &&
    acceptsHtml(request)
  );
}

/**
 * The fetchers that read a shared link to draw its preview in a chat (WhatsApp, Facebook,
 * Telegram, Slack, iMessage…) or index it. They get a token page without the link's data: a
 * patient's name never reaches their servers, and their visit neither marks a form opened in the
 * desk nor starts a card frame.
 */
const linkPreviewAgents =
  /whatsapp|facebookexternalhit|facebot|meta-externalagent|telegrambot|slackbot|twitterbot|linkedinbot|discordbot|skypeuripreview|applebot|googlebot|bingbot|embedly|\bbot\b|crawler|spider/i;

export const isLinkPreview = (userAgent: string | undefined): boolean =>
  userAgent !== undefined && linkPreviewAgents.test(userAgent);

/**
 * Serves the built SPA from `webDistDir`: hashed /assets/ for a year (pre-compressed .br/.gz
 * when accepted), other public files for an hour, index.html never cached. Returns the
 * fallback that answers client-side routes, or null when serving is disabled.
 */
export async function registerWebApp(
  app: FastifyInstance,
  options: {
    webDistDir: string | null;
    config: Pick<Config, 'publicOrigin' | 'parentSiteUrl' | 'cardFrameBaseUrl' | 'whatsapp'>;
    /** A clinic's `GET /api/clinic/:id` answer, for rendering its page on the server. */
    clinicDataJson?: (clinicId: number) => Promise<string>;
    /**
     * A payment link's `POST /api/get-payment-request` answer (its `data`, as that route
     * serialises it), for rendering the payment page on the server; rejects as that route does.
     */
    paymentRequestData?: (token: string) => Promise<unknown>;
    /**
     * The same answer for the payment result page, which reads only the request's state (no
     * handshake pinning a frame to it); rejects as that route does.
     */
    paymentResultData?: (token: string) => Promise<unknown>;
    /**
     * A form link's `POST /api/get-form` answer, as that route serialises it, for rendering the
     * intake form page on the server; rejects as that route does.
     */
    intakeFormData?: (token: string) => Promise<unknown>;
  },
): Promise<NavigationFallback | null> {
  const { webDistDir, config } = options;
  if (webDistDir === null) return null;

  const robots = robotsTxt(config.publicOrigin);
  const sitemap = sitemapXml(config.publicOrigin);
  app.get('/robots.txt', { schema: { hide: true } }, (_request, reply) =>
    reply.header('cache-control', SHORT_CACHE).type('text/plain; charset=utf-8').send(robots),
  );
  app.get('/sitemap.xml', { schema: { hide: true } }, (_request, reply) =>
    reply.header('cache-control', SHORT_CACHE).type('application/xml; charset=utf-8').send(sitemap),
  );

  const indexFile = path.join(webDistDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn({ webDistDir }, 'web app not built; serving the API only');
    const notBuilt = (reply: FastifyReply) =>
      reply
        .status(503)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send(
          'The Marpe web app has not been built yet. Run `npm run build`, then start the server again.\n',
        );
    app.get('/', { schema: { hide: true } }, (_request, reply) => notBuilt(reply));
    return (request, reply) => {
      if (!isNavigation(request)) return false;
      notBuilt(reply);
      return true;
    };
  }

  const indexHtml = await readFile(indexFile, 'utf8');
  const render = compileIndexTemplate(indexHtml, config);
  const prerendered = await compilePrerenderedPages(webDistDir, config);
  const routeTemplates = await compileRouteTemplates(webDistDir, indexHtml, config);
  const renderer = await loadRenderer(webDistDir);
  const clinicDataPages = new Map<ClinicDataPage, ClinicPageRenderer>();
  for (const page of Object.keys(clinicDataRendering) as ClinicDataPage[]) {
    const shell = renderer?.shells.get(clinicDataRendering[page].shell);
    if (renderer && shell !== undefined && options.clinicDataJson) {
      clinicDataPages.set(
        page,
        clinicPageRenderer(page, renderer.prerender, shell, config, options.clinicDataJson),
      );
    }
  }
  const templateFor = (requestPath: string): PageTemplate => {
    const pathname = pathOf(requestPath);
    return (
      prerendered.get(pathname) ??
      routeTemplates.find((route) => route.pattern.test(pathname))?.render ??
      render
    );
  };
  const sendHtml = (reply: FastifyReply, html: string, cacheControl = 'no-cache') =>
    reply
      .status(200)
      .header('cache-control', cacheControl)
      .type('text/html; charset=utf-8')
      .send(html);
  const resultShell = renderer?.shells.get('payment-result');
  const { paymentResultData } = options;
  // The payment result (`/tranzila/:token`, routed by the payments module under its own CSP),
  // rendered per request with the link's request as the page asks for it: null when the link is
  // not valid, which the page says. One patient's: never kept.
  const renderPaymentResult =
    renderer && resultShell !== undefined && paymentResultData
      ? (() => {
          const render = linkPageRenderer(renderer.prerender, resultShell, config);
          return async (token: string, requestUrl: string) => {
            const data = await paymentResultData(token).catch((error: unknown) => {
              if (isAppError(error) && error.status === 404) return null;
              throw error;
            });
            return render(requestUrl, requestUrl, { paymentResult: { token, data } });
          };
        })()
      : undefined;
  const markTokenPage = (request: FastifyRequest, reply: FastifyReply) => {
    if (isTokenPage(request.url)) {
      reply.header('x-robots-tag', 'noindex, nofollow');
      reply.header('referrer-policy', 'no-referrer');
    }
  };
  const sendIndex = (request: FastifyRequest, reply: FastifyReply) => {
    markTokenPage(request, reply);
    // The full path, query included, as the SPA sets it after each navigation
    // (docs/product/site.md#canonical-link).
    const shell = () => templateFor(request.url)(request.url);
    const canonical = canonicalClinicAddress(request.url);
    if (canonical !== null) return reply.redirect(canonical, 301);
    const resultToken = renderPaymentResult ? paymentResultToken(request.url) : null;
    if (renderPaymentResult && resultToken !== null) {
      renderPaymentResult(resultToken, request.url).then(
        (html) => sendHtml(reply, html, 'no-store'),
        (error: unknown) => {
          request.log.error({ err: error }, 'rendering the payment result page failed');
          sendHtml(reply, shell(), 'no-store');
        },
      );
      return reply;
    }
    const dataPage = clinicDataPage(request.url);
    const renderClinicPage = dataPage ? clinicDataPages.get(dataPage.page) : undefined;
    if (dataPage && renderClinicPage) {
      renderClinicPage(dataPage.clinicId, request.url).then(
        (html) => sendHtml(reply, html),
        (error: unknown) => {
          // An unknown clinic is the page's to say (it asks the API); anything else is logged,
          // and the patient still gets the page, which loads its data itself.
          if (!(isAppError(error) && error.status === 404)) {
            request.log.error({ err: error }, `rendering the ${dataPage.page} page failed`);
          }
          sendHtml(reply, shell());
        },
      );
      return reply;
    }
    return sendHtml(reply, shell());
  };

  const assetsDir = path.join(webDistDir, 'assets') + path.sep;
  await app.register(fastifyStatic, {
    root: webDistDir,
    prefix: '/',
    // The build output is fixed while the server runs: one route per file, found at start-up,
    // so unknown paths go straight to the fallback instead of touching the disk.
    wildcard: false,
    globIgnore: ['index.html', 'prerendered/**', '**/*.br', '**/*.gz'],
    index: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, filePath) => {
      reply.header('cache-control', filePath.startsWith(assetsDir) ? IMMUTABLE : SHORT_CACHE);
    },
  });
  app.get('/', { schema: { hide: true } }, sendIndex);
  app.get('/index.html', { schema: { hide: true } }, sendIndex);

  // The pages rendered on the server with one link's data (ADR 021): per request and never kept,
  // since each is one patient's. Limited like the link's API route, which they call. An ended
  // link, or any failure, gets the route's plain page, which loads its data itself.
  const tokenPageRoute = (
    pattern: `/${string}/:token`,
    shellName: string,
    dataFor: ((token: string) => Promise<unknown>) | undefined,
    pageDataKey: string,
  ) => {
    const shellHtml = renderer?.shells.get(shellName);
    if (!renderer || shellHtml === undefined || !dataFor) return;
    const render = linkPageRenderer(renderer.prerender, shellHtml, config);
    app.get<{ Params: { token: string } }>(
      pattern,
      { schema: { hide: true }, config: { rateLimit: linkRouteLimit } },
      async (request, reply) => {
        markTokenPage(request, reply);
        const { token } = request.params;
        // The plain page for a preview fetcher (isLinkPreview), and when rendering fails.
        let html: string | null = null;
        if (!isLinkPreview(request.headers['user-agent'])) {
          try {
            const pageData = { [pageDataKey]: { token, data: await dataFor(token) } };
            html = await render(request.url, pattern.replace(':token', token), pageData);
          } catch (error) {
            // An ended link is the page's to say (it asks the API and goes to /expired); anything
            // else is logged, and the patient still gets the page, which loads its data itself.
            if (!(isAppError(error) && error.status === 404)) {
              request.log.error({ err: error }, `rendering the ${shellName} page failed`);
            }
          }
        }
        html ??= templateFor(request.url)(request.url);
        return reply
          .status(200)
          .header('cache-control', 'no-store')
          .type('text/html; charset=utf-8')
          .send(html);
      },
    );
  };
  tokenPageRoute('/p/:token', 'payment', options.paymentRequestData, 'paymentRequest');
  tokenPageRoute('/q/:token', 'intake-form', options.intakeFormData, 'intakeForm');

  return (request, reply) => {
    if (!isNavigation(request)) return false;
    sendIndex(request, reply);
    return true;
  };
}
