/** Runtime settings. The API server writes them into index.html per request; dev and preview fall back to this origin. */
export interface AppConfig {
  /** Fixed site origin for canonical links, without a trailing slash. */
  publicOrigin: string;
  /** The provider's home site, linked from the landing logo. */
  parentSiteUrl: string;
  apiBase: string;
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
  });
}

export const config = readConfig(document, window.location.origin);
