import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import {
  clinicPagePath,
  isLinkTokenPath,
  matchPagePath,
  normaliseClinicName,
  patientPage,
  patientPageIds,
  patientPages,
} from '@marpe/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { isAppError } from '../errors.js';
import { isApiPath } from './api-path.js';
import { escapeHtmlAttribute } from './html-text.js';
import { linkRouteLimit } from './private-answer.js';
import { dataPageOf, loadPageRenderer, type PageDataSources } from './server-pages.js';

/** The literal comment the web build leaves inside <head> for the server to fill. */
export const HEAD_MARKER = '<!--marpe:head-->';

/**
 * Where prerendered pages link to the parent site: the web build cannot know it (ADR 021), so the
 * server puts the configured one in at start-up. Must match `placeholders` in apps/web/src/prerender.tsx.
 */
export const PARENT_SITE_PLACEHOLDER = 'https://marpe-parent-site.invalid/';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const SHORT_CACHE = 'public, max-age=3600';

/** The pages anyone may find through a search engine (the registry's `indexed`). */
const indexedPages = patientPageIds
  .map(patientPage)
  .filter((page) => page.indexed)
  .map((page) => page.path);

/**
 * Pages whose address carries a link token given to one patient or clinic (the registry's
 * `linkToken`): a form, a payment request, a payment result, a WhatsApp connection. Never indexed,
 * never sent on as a referrer. The payment result page sets its referrer policy too; saying it
 * here keeps the HTML and its metas in step.
 */
export function isTokenPage(requestPath: string): boolean {
  return isLinkTokenPath(pathOf(requestPath));
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
  const urls = indexedPages
    .map((page) => `<url><loc>${escapeHtmlAttribute(publicOrigin + page)}</loc></url>`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>\n`;
}

/** Answers a client-side route (or declines, returning false, so the caller sends a 404). */
export type NavigationFallback = (request: FastifyRequest, reply: FastifyReply) => boolean;

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

type PageTemplate = (requestPath: string) => string;

/**
 * index.html for each client route the web build listed (dist/prerendered/routes.json), with the
 * route's modulepreload links in its head: its code downloads beside the entry chunk.
 */
async function compileRouteTemplates(
  webDistDir: string,
  html: string,
  config: Parameters<typeof compileIndexTemplate>[1],
): Promise<{ matches: (pathname: string) => boolean; render: PageTemplate }[]> {
  const file = path.join(webDistDir, 'prerendered', 'routes.json');
  if (!existsSync(file)) return [];
  const routes = JSON.parse(await readFile(file, 'utf8')) as { path: string; head: string }[];
  return routes.map((route) => ({
    matches: (pathname: string) => matchPagePath(route.path, pathname) !== null,
    render: compileIndexTemplate(html.replace('</head>', `${route.head}</head>`), config),
  }));
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
  // Null too for a name that does not decode.
  const params = matchPagePath(patientPages['clinic-page'].path, pathname);
  const id = params?.clinicId ?? '';
  const name = params?.clinicName;
  if (name === undefined || !/^[1-9]\d{0,9}$/.test(id)) return null;
  if (normaliseClinicName(name) === name) return null;
  return `${clinicPagePath({ id: Number(id), name })}${query}`;
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
    /** The data the pages rendered on the server are rendered with, by kind. */
    pageData?: PageDataSources;
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
  const renderer = await loadPageRenderer(webDistDir, options.pageData ?? {}, (html) =>
    compileIndexTemplate(html, config),
  );
  const templateFor = (requestPath: string): PageTemplate => {
    const pathname = pathOf(requestPath);
    return (
      prerendered.get(pathname) ??
      routeTemplates.find((route) => route.matches(pathname))?.render ??
      render
    );
  };
  const markTokenPage = (request: FastifyRequest, reply: FastifyReply) => {
    if (isTokenPage(request.url)) {
      reply.header('x-robots-tag', 'noindex, nofollow');
      reply.header('referrer-policy', 'no-referrer');
    }
  };
  /**
   * The page with data a request is, when the server renders it (server-pages.ts). One link's
   * page only through a route at its own path, which is limited like the link's API route (the
   * payment result's is the payments module's, under the CSP that lets our page frame it), and
   * never for a link preview fetcher (isLinkPreview).
   */
  const renderedDataPage = (request: FastifyRequest) => {
    const dataPage = renderer ? dataPageOf(request.url) : null;
    if (!dataPage || !renderer?.renders(dataPage.page)) return null;
    const page = patientPage(dataPage.page);
    if (page.linkToken) {
      if (request.routeOptions.url !== page.path) return null;
      if (isLinkPreview(request.headers['user-agent'])) return null;
    }
    return dataPage;
  };
  const sendIndex = (request: FastifyRequest, reply: FastifyReply) => {
    markTokenPage(request, reply);
    // One patient's page is never kept.
    const cacheControl = isTokenPage(request.url) ? 'no-store' : 'no-cache';
    const send = (html: string) =>
      reply
        .status(200)
        .header('cache-control', cacheControl)
        .type('text/html; charset=utf-8')
        .send(html);
    // The full path, query included, as the SPA sets it after each navigation
    // (docs/product/site.md#canonical-link).
    const shell = () => templateFor(request.url)(request.url);
    const canonical = canonicalClinicAddress(request.url);
    if (canonical !== null) return reply.redirect(canonical, 301);
    const dataPage = renderedDataPage(request);
    if (!renderer || !dataPage) return send(shell());
    renderer.render(dataPage, request.url).then(send, (error: unknown) => {
      // An unknown clinic or an ended link is the page's to say (it asks the API); anything else
      // is logged, and the patient still gets the page, which loads its data itself.
      if (!(isAppError(error) && error.status === 404)) {
        request.log.error({ err: error }, `rendering the ${dataPage.page} failed`);
      }
      send(shell());
    });
    return reply;
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

  // The pages rendered on the server with one link's data (ADR 021), at their own routes: limited
  // like the link's API route, which they call. The payment result's route is the payments
  // module's (it may be framed by our own page), which hands it to the navigation fallback.
  for (const id of patientPageIds) {
    const page = patientPage(id);
    if (page.html.from !== 'server' || !page.linkToken || page.leavesFrame) continue;
    app.get(
      page.path,
      { schema: { hide: true }, config: { rateLimit: linkRouteLimit } },
      sendIndex,
    );
  }

  return (request, reply) => {
    if (!isNavigation(request)) return false;
    sendIndex(request, reply);
    return true;
  };
}
