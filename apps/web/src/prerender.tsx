// The build-time renderer (ADR 021): `scripts/prerender.mjs` loads this module, built by Vite for
// Node, and writes the HTML of the pages that are the same for every visitor. Never shipped to
// the browser.
import {
  patientPage,
  patientPageIds,
  type PatientPage,
  type PatientPageId,
} from '@marpe/shared/rules';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
  type RouteObject,
} from 'react-router';
import { initI18n } from './app/i18n/init';
import { AppProviders, createEmotionCaches } from './app/providers';
import { pageDataQueryClient, type PageData } from './app/page-data';
import { isLazyPageId, webPages } from './app/pages';
import { defaultTitleKey, isRouteHandle } from './app/route-handle';
import { createRoutes } from './app/router';
import { prerenderLanguage } from './lib/languages';
import { hoistServerStyles } from './lib/server-styles';
import { parseHtmlOnServer } from './features/intake-form/components/parse-html-on-server';
import { setHtmlParser } from './features/intake-form/components/safe-html';
import { createFormStore } from './features/intake-form/stores/form-store';
import { outcomeTitleKey, paymentOutcome } from './features/payment/payment-outcome';

// What scripts/prerender.mjs needs to write a page that wakes on demand (ADR 025).
export { pageCodeManifestElementId } from './app/wake-signal';

// A form's clinic HTML is parsed as the browser's DOMParser would, which Node lacks.
setHtmlParser(parseHtmlOnServer);

/** What the server fills in per deployment; scripts/prerender.mjs knows these placeholders. */
export const placeholders = {
  parentSiteUrl: 'https://marpe-parent-site.invalid/',
  publicOrigin: 'https://marpe-public-origin.invalid',
} as const;

/** Only what i18next reads and writes at start-up: the language choice and <html lang dir>. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

export interface Prerendered {
  /** The markup that goes inside #root. */
  html: string;
  /** The markup's style rules, for the page's <head> (lib/server-styles.ts, ADR 035). */
  styles: string;
  /** The document title, as the page itself would set it. */
  title: string;
  /** Source files of the route modules the page renders, for their modulepreload links. */
  modules: string[];
  /**
   * The page changes by itself, so its code is needed without the patient acting (ADR 025): the
   * payment result while the payment is being confirmed, which the page asks about until it is.
   */
  live: boolean;
}

/**
 * Renders `path` as a first-time visitor sees it, in the default language: at build time for the
 * pages without data, per request (by the API server) for those given their `data`.
 */
export async function prerender(path: string, data: PageData = {}): Promise<Prerendered> {
  const i18n = initI18n({
    storage: memoryStorage(),
    root: { lang: prerenderLanguage, dir: 'rtl' } as HTMLElement,
  });
  const routes: RouteObject[] = createRoutes(placeholders);
  const handler = createStaticHandler(routes);
  const url = new URL(path, placeholders.publicOrigin);
  const context = await handler.query(new Request(url));
  if (context instanceof Response) throw new Error(`${path}: the routes answered a redirect`);
  if (context.errors) throw new Error(`${path}: ${JSON.stringify(context.errors)}`);
  // A route module that failed to load (one that touches `document` as it loads, say) leaves the
  // page at its loading spinner without an error: fail instead, so no such page is sent.
  const unloaded = context.matches.find(({ route }) => route.lazy && !route.Component);
  if (unloaded) throw new Error(`${path}: route module ${unloaded.route.id} did not load`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const { html, styles } = hoistServerStyles(
    renderToString(
      <StrictMode>
        <AppProviders
          i18n={i18n}
          emotionCaches={createEmotionCaches()}
          queryClient={pageDataQueryClient(data)}
        >
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </AppProviders>
      </StrictMode>,
    ),
  );
  const handle = context.matches.map((match) => match.route.handle).findLast(isRouteHandle);
  const modules = context.matches.flatMap(({ route }) =>
    isLazyPageId(route.id) ? [webPages[route.id].module] : [],
  );
  const outcome = handle?.name === 'payment-result-page' ? resultOutcome(url, data) : undefined;
  return {
    html,
    styles,
    title:
      pageTitle(handle?.name, data) ??
      i18n.t(outcome ? outcomeTitleKey[outcome] : (handle?.titleKey ?? defaultTitleKey)),
    modules,
    live: outcome === 'processing',
  };
}

/** What the payment result page shows at first, as it decides it (without a poll yet). */
function resultOutcome(url: URL, data: PageData) {
  return paymentOutcome(url.searchParams.get('results') ?? '', data.paymentResult?.data, 0);
}

/**
 * The title a page gives itself once it has its data (usePageTitle), or none: the clinic page's
 * is the clinic's name (the login page, rendered with the same data, keeps its own), the form
 * page's the title of the step it opens on. (The payment result page's is its outcome's.)
 */
function pageTitle(routeName: string | undefined, data: PageData): string | undefined {
  if (routeName === 'clinic-page' && data.clinic) return data.clinic.clinic.name;
  if (routeName === 'intake-form-page' && data.intakeForm) {
    const { token, data: form } = data.intakeForm;
    const { formData, currentStepIndex } = createFormStore({
      token,
      formData: form.data,
      draft: form.draft,
    }).getState();
    return formData?.schema[currentStepIndex]?.title || undefined;
  }
  return undefined;
}

/**
 * Every patient page as the build needs it (scripts/prerender.mjs): its declaration in the
 * registry (@marpe/shared's patientPages) and, but for the landing page in the entry chunk, the
 * module Vite's manifest names its chunk by.
 */
export function pageList(): (PatientPage & { id: PatientPageId; modules: string[] })[] {
  return patientPageIds.map((id) => ({
    id,
    ...patientPage(id),
    modules: isLazyPageId(id) ? [webPages[id].module] : [],
  }));
}
