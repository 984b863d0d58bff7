// The build-time renderer (ADR 021): `scripts/prerender.mjs` loads this module, built by Vite for
// Node, and writes the HTML of the pages that are the same for every visitor. Never shipped to
// the browser.
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
  type RouteObject,
} from 'react-router';
import { initI18n } from './app/i18n/init';
import { prerenderLanguage } from './app/i18n/languages';
import { AppProviders, createEmotionCaches } from './app/providers';
import { pageDataQueryClient, type PageData } from './app/page-data';
import { defaultTitleKey, isRouteHandle } from './app/route-handle';
import { createRoutes } from './app/router';
import { hoistServerStyles } from './lib/server-styles';
import { parseHtmlOnServer } from './features/intake-form/components/parse-html-on-server';
import { setHtmlParser } from './features/intake-form/components/safe-html';
import { createFormStore } from './features/intake-form/stores/form-store';
import { outcomeTitleKey, paymentOutcome } from './features/payment/payment-outcome';

// What scripts/prerender.mjs needs to write a page that wakes on demand (ADR 025), and the
// clinic page's shell.
export { pageCodeManifestElementId } from './app/wake-signal';
export { clinicPath } from './features/clinic/clinic-page';
/** Routes as lazyRoutes() spells them, for their shells; the build fails if the router has none. */
export const paymentPath = '/p/:token';
export const loginPath = '/login/:clinicId';
export const bookingPath = '/booking/:clinicId';
export const intakeFormPath = '/q/:token';
export const paymentResultPath = '/tranzila/:token';
export const appointmentsPath = '/appointments/:clinicId';
export const confirmationPath = '/booking/:clinicId/confirmation';
export const completedPath = '/completed';
export const expiredPath = '/expired';

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
  const modules = context.matches.flatMap(({ route }) => {
    // Lazy pages carry the spinner for a cold start (see page() in router.tsx); data routes
    // hold it as an element.
    if (!route.HydrateFallback && !route.hydrateFallbackElement) return [];
    const files = routeModules[route.id];
    if (!files) throw new Error(`${path}: add route ${route.id} to routeModules in prerender.tsx`);
    return files;
  });
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
 * The source of each lazy route module by route id: Vite's manifest names their chunks by source
 * file. `lazyRoutes` fails the build when a lazy route is missing here.
 */
const routeModules: Record<string, string[]> = {
  'privacy-page': ['src/features/legal/privacy-page.tsx'],
  'terms-page': ['src/features/legal/terms-page.tsx'],
  'accessibility-page': ['src/features/legal/accessibility-page.tsx'],
  'clinic-page': ['src/features/clinic/clinic-page.tsx'],
  'login-page': ['src/features/patient-auth/login-page.tsx'],
  'booking-page': ['src/app/clinic-flow-routes.tsx'],
  'booking-confirmation-page': ['src/features/booking/confirmation-page.tsx'],
  'appointments-page': ['src/app/clinic-flow-routes.tsx'],
  'intake-form-page': ['src/features/intake-form/intake-form-page.tsx'],
  'payment-request-page': ['src/features/payment/payment-request-page.tsx'],
  'payment-result-page': ['src/features/payment/payment-result-page.tsx'],
  'completed-page': ['src/features/status-pages/completed-page.tsx'],
  'expired-page': ['src/features/status-pages/expired-page.tsx'],
  'shaam-auth-page': ['src/features/shaam-auth/shaam-auth-page.tsx'],
  'whatsapp-signup-page': ['src/features/whatsapp-signup/whatsapp-signup-page.tsx'],
};

/** Every lazily loaded route: its id, full path pattern (React Router syntax) and modules. */
export function lazyRoutes(): { id: string; path: string; modules: string[] }[] {
  const found: { id: string; path: string; modules: string[] }[] = [];
  const walk = (routes: RouteObject[], parent: string) => {
    for (const route of routes) {
      const path = route.path ? `${parent.replace(/\/$/, '')}/${route.path}` : parent;
      if (route.lazy) {
        const modules = routeModules[route.id ?? ''];
        if (!modules) throw new Error(`add route ${route.id} to routeModules in prerender.tsx`);
        found.push({ id: route.id ?? '', path, modules });
      }
      walk(route.children ?? [], path);
    }
  };
  walk(createRoutes(placeholders), '/');
  return found;
}
