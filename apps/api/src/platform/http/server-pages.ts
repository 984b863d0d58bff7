// The patient pages the server renders per request with their data (ADR 021), as the page
// registry declares them (@marpe/shared's patientPages, docs/pages.md): which page an address is,
// with which data, in which of the web build's shells. Adding such a page is an entry there; only
// a new kind of data needs a source here.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  pagePath,
  patientPage,
  patientPageAt,
  type PageDataKind,
  type PatientPageId,
} from '@marpe/shared';
import { isAppError } from '../errors.js';
import { escapeHtmlAttribute, scriptJson } from './html-text.js';

/**
 * Where each kind of page data comes from, as its API route answers it; each rejects as that
 * route does. A clinic's is its cached JSON text (ADR 003), keyed by clinic id; the others are
 * one link's, keyed by its token.
 */
export interface PageDataSources {
  /** A clinic's `GET /api/clinic/:id` answer. */
  clinic?: (clinicId: number) => Promise<string>;
  /** A payment link's `POST /api/get-payment-request` answer (its `data`). */
  paymentRequest?: (token: string) => Promise<unknown>;
  /**
   * The same answer for the payment result page, which reads only the request's state (no
   * handshake pinning a frame to it).
   */
  paymentResult?: (token: string) => Promise<unknown>;
  /** A form link's `POST /api/get-form` answer. */
  intakeForm?: (token: string) => Promise<unknown>;
}

/** A request for a page rendered with data: the page, its data's kind and key. */
export interface DataPageRequest {
  page: PatientPageId;
  data: PageDataKind;
  /** The clinic id, or the link's token. */
  key: number | string;
}

/** A clinic id as the database can hold it, or null. */
function clinicIdOf(param: string | undefined): number | null {
  if (param === undefined || !/^[1-9]\d{0,9}$/.test(param)) return null;
  const id = Number(param);
  return id > 2_147_483_647 ? null : id;
}

/**
 * The page a request URL is, when the server renders it with data, with that data's key; null
 * for any other page, a clinic id that cannot exist, or an address whose page is not everybody's
 * (the registry's `unlessQuery`).
 */
export function dataPageOf(url: string): DataPageRequest | null {
  const at = url.indexOf('?');
  const [pathname, query] = at === -1 ? [url, ''] : [url.slice(0, at), url.slice(at + 1)];
  const found = patientPageAt(pathname);
  if (!found) return null;
  const { html } = patientPage(found.id);
  if (html.from !== 'server') return null;
  if (html.unlessQuery && new URLSearchParams(query).has(html.unlessQuery)) return null;
  const key = html.data === 'clinic' ? clinicIdOf(found.params.clinicId) : found.params.token;
  return key === null || key === undefined ? null : { page: found.id, data: html.data, key };
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

/** index.html's metas and canonical link for a request path (web-app.ts compileIndexTemplate). */
type CompileTemplate = (html: string) => (requestPath: string) => string;

export interface PageRenderer {
  /** Whether the build and the server's sources can render this page. */
  renders(page: PatientPageId): boolean;
  /**
   * The page's HTML for a request URL; rejects as its data source does. A clinic's page is kept
   * per clinic for as long as its JSON stays the same; one link's page never is.
   */
  render(request: DataPageRequest, requestUrl: string): Promise<string>;
}

/** The HTML of the page a page is sent as (the registry's `rendersAs`), and its shell's name. */
function renderedPageOf(page: PatientPageId): PatientPageId {
  const { html } = patientPage(page);
  return (html.from === 'server' && html.rendersAs) || page;
}

/**
 * The web build's renderer (dist-ssr/prerender.js) and the shells it wrote for the pages rendered
 * with data (dist/prerendered/shells/<page id>.html); null when the build has no renderer.
 */
export async function loadPageRenderer(
  webDistDir: string,
  sources: PageDataSources,
  compile: CompileTemplate,
): Promise<PageRenderer | null> {
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
  const compiledShells = new Map([...shells].map(([name, html]) => [name, compile(html)] as const));
  const kept = new Map<string, { json: string; render: (requestPath: string) => string }>();

  const renderClinicPage = async (page: PatientPageId, clinicId: number, requestUrl: string) => {
    const source = sources.clinic;
    const shell = shells.get(renderedPageOf(page));
    if (!source || shell === undefined) throw new Error(`${page}: not rendered here`);
    const json = await source(clinicId);
    const cacheKey = `${page} ${clinicId}`;
    let entry = kept.get(cacheKey);
    if (entry?.json !== json) {
      const rendered = renderedPageOf(page);
      const renderedPath = pagePath(patientPage(rendered).path, { clinicId });
      const html = await prerender(renderedPath, { clinic: JSON.parse(json) });
      // Sent at another address: the app hydrates it at the address it was rendered for.
      const pathJson = rendered === page ? '' : `,"path":${JSON.stringify(renderedPath)}`;
      entry = { json, render: compile(fillShell(shell, html, `{"clinic":${json}${pathJson}}`)) };
      kept.set(cacheKey, entry);
    }
    return entry.render(requestUrl);
  };

  const renderLinkPage = async (
    page: PatientPageId,
    data: Exclude<PageDataKind, 'clinic'>,
    token: string,
    requestUrl: string,
  ) => {
    const source = sources[data];
    const shell = compiledShells.get(renderedPageOf(page));
    if (!source || shell === undefined) throw new Error(`${page}: not rendered here`);
    const answer = await source(token).catch((error: unknown) => {
      // The payment result says itself that a link is not valid; the other pages ask the API
      // and go to the expired page, so they get the plain page.
      if (data === 'paymentResult' && isAppError(error) && error.status === 404) return null;
      throw error;
    });
    const pageData = { [data]: { token, data: answer } };
    const at = requestUrl.indexOf('?');
    const renderedPath =
      pagePath(patientPage(renderedPageOf(page)).path, { token }) +
      (at === -1 ? '' : requestUrl.slice(at));
    return fillShell(
      shell(requestUrl),
      await prerender(renderedPath, pageData),
      JSON.stringify(pageData),
    );
  };

  return {
    renders: (page) => {
      const { html } = patientPage(page);
      return (
        html.from === 'server' &&
        sources[html.data] !== undefined &&
        shells.has(renderedPageOf(page))
      );
    },
    render: ({ page, data, key }, requestUrl) =>
      data === 'clinic'
        ? renderClinicPage(page, Number(key), requestUrl)
        : renderLinkPage(page, data, String(key), requestUrl),
  };
}
