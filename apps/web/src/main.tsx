import './app/fonts.css';
import './app/waiting.css';
import { startTransition, StrictMode, useEffect, useLayoutEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { i18nReady, initI18n } from './app/i18n/init';
import { pageDataQueryClient, readPageData } from './app/page-data';
import { AppProviders } from './app/providers';
import {
  pageCodeManifestElementId,
  appReadyEvent,
  renderAfreshAttribute,
  waitingAttribute,
  type PageCodeManifest,
} from './app/wake-signal';
import {
  createAppRouter,
  createRoutes,
  loadPages,
  routerProviderProps,
  type LoadedPages,
} from './app/router';
import { configureApiClient } from './lib/api-client';
import { tokenStorageKey } from './lib/auth-storage-keys';
import { appConfig } from './lib/config';
import { prerenderLanguage } from './lib/languages';
import { appHasTakenOver, keepTypedBeforeApp } from './lib/typed-before-app';

const config = appConfig();
configureApiClient({ baseUrl: config.apiBase });
// A stored session is checked on load (docs/product/login.md#session). Its code loads only when
// there is one.
if (window.localStorage.getItem(tokenStorageKey)) {
  void import('./lib/patient-session/session-store').then(({ useSessionStore }) =>
    useSessionStore.getState().fetchPatient(),
  );
}
const i18n = initI18n();

const container = document.getElementById('root');
if (!container) throw new Error('index.html lacks #root');

const pageData = readPageData(document);
const queryClient = pageDataQueryClient(pageData);

/**
 * Once the app has taken over a page painted from HTML (its fields have taken what the patient
 * typed before, lib/typed-before-app.ts), tells the page's waking script that the app now handles
 * it: a click it held back can run. It wraps the app rather than sitting beside it: a sibling
 * would change the ids React derives from the tree's shape (useId), and the hydrated elements
 * would keep the server's.
 */
function AppReady({
  root,
  hydrated,
  children,
}: {
  root: HTMLElement;
  hydrated: boolean;
  children: ReactNode;
}) {
  useLayoutEffect(() => {
    // The waking script hid HTML that this patient was not going to see (ADR 025).
    if (!hydrated) root.removeAttribute(waitingAttribute);
  }, [root, hydrated]);
  useEffect(() => {
    // After React's effects, so that what was typed before is rendered at once, before a click
    // the waking script held back runs.
    const handle = setTimeout(() => {
      appHasTakenOver();
      document.dispatchEvent(new Event(appReadyEvent));
    });
    return () => clearTimeout(handle);
  }, []);
  return children;
}

/** `loaded`: the pages whose code came before the app started (loadPages). */
function app(root: HTMLElement, hydrated: boolean, loaded?: LoadedPages) {
  return (
    <StrictMode>
      <AppProviders i18n={i18n} queryClient={queryClient}>
        <AppReady root={root} hydrated={hydrated}>
          <RouterProvider
            router={createAppRouter(createRoutes(config, loaded))}
            {...routerProviderProps}
          />
        </AppReady>
      </AppProviders>
    </StrictMode>
  );
}

// A page painted from HTML (ADR 021) is hydrated when the patient reads it in the language it was
// rendered in, once its route's code is in (then the first render is the page, as in the HTML);
// in the other language, or when the browser holds a session or a code the server could not see
// (ADR 025), it is rendered afresh over the HTML, also once its route's code and its language's
// texts are in, so the HTML stays until the page replaces it rather than giving way to a spinner.
// No top-level await: it would make the bundler split the entry into many more chunks.
if (container.hasChildNodes()) {
  const hydrate =
    i18n.language === prerenderLanguage && !container.hasAttribute(renderAfreshAttribute);
  // HTML the server rendered for another address (the appointments page of a patient without a
  // session is the login page, where the app would send them): hydrated, the address becomes that
  // page's, as the app's own redirect would have made it.
  if (hydrate && pageData.path !== undefined && pageData.path !== window.location.pathname) {
    window.history.replaceState(window.history.state, '', pageData.path);
  }
  const manifestText = document.getElementById(pageCodeManifestElementId)?.textContent;
  const nextRoutes = manifestText
    ? ((JSON.parse(manifestText) as PageCodeManifest).nextRoutes ?? [])
    : [];
  void Promise.all([loadPages(window.location.pathname, nextRoutes), i18nReady(i18n)]).then(
    ([loaded]) => {
      if (hydrate) {
        // In a transition: hydration yields to the browser every few milliseconds instead of
        // holding the main thread for the whole page, so a tap or a scroll while the app starts
        // (it may start while the patient reads, ADR 033) is not kept waiting.
        startTransition(() => {
          hydrateRoot(container, app(container, true, loaded));
        });
      } else {
        // Its fields go with the HTML: what was typed in them is kept for the app's, by name.
        keepTypedBeforeApp(container);
        createRoot(container).render(app(container, false, loaded));
      }
    },
  );
} else {
  // The page's texts first (English is fetched), so that its first render is translated.
  void i18nReady(i18n).then(() => createRoot(container).render(app(container, false)));
}
