/** Runtime settings. The API server writes them into index.html per request; dev and preview fall back to this origin. */
export interface AppConfig {
  /** Fixed site origin for canonical links, without a trailing slash. */
  publicOrigin: string;
  /** The provider's home site, linked from the landing logo. */
  parentSiteUrl: string;
  apiBase: string;
  /**
   * Where the card-payment frame lives, without a trailing slash: the provider in production,
   * the demo sandbox (`/api/sandbox` on this server) otherwise.
   */
  cardFrameBaseUrl: string;
  /** The WhatsApp connection page's Meta app (null when the server has none) and SDK. */
  meta: { appId: string; configId: string; sdkUrl: string } | null;
}

function meta(doc: Document, name: string): string | undefined {
  const content = doc.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content.trim();
  return content || undefined;
}

export function readConfig(doc: Document, origin: string): AppConfig {
  const publicOrigin = (meta(doc, 'marpe-public-origin') ?? origin).replace(/\/+$/, '');
  return Object.freeze({
    publicOrigin,
    parentSiteUrl: meta(doc, 'marpe-parent-site') ?? `${origin}/`,
    apiBase: '/api',
    cardFrameBaseUrl: cardFrameBase(meta(doc, 'marpe-card-frame-base'), origin),
    meta: readMeta(doc),
  });
}

function readMeta(doc: Document): AppConfig['meta'] {
  const appId = meta(doc, 'marpe-meta-app-id');
  const configId = meta(doc, 'marpe-meta-config-id');
  const sdkUrl = meta(doc, 'marpe-meta-sdk-url');
  return appId && configId && sdkUrl ? { appId, configId, sdkUrl } : null;
}

/**
 * The card frame's base: absolute (the provider), or a path on the origin the page was opened
 * from (`/api/sandbox`: the demo sandbox, reached by whatever name the browser used).
 */
function cardFrameBase(value: string | undefined, origin: string): string {
  try {
    return new URL(value ?? '/api/sandbox', `${origin}/`).href.replace(/\/+$/, '');
  } catch {
    return `${origin}/api/sandbox`;
  }
}

let pageConfig: AppConfig | undefined;

/**
 * This page's settings, read from its metas when first asked for. Not when a module loads: the
 * server renders pages (ADR 021) with modules that use them only in the browser, in handlers.
 */
export function appConfig(): AppConfig {
  pageConfig ??= readConfig(document, window.location.origin);
  return pageConfig;
}
