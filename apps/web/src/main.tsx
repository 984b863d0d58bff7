import './app/fonts.css';
import { StrictMode, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { config } from './app/config';
import { initI18n } from './app/i18n/init';
import { prerenderLanguage } from './app/i18n/languages';
import { pageDataQueryClient, readPageData } from './app/page-data';
import { AppProviders } from './app/providers';
import { appReadyEvent } from './app/wake-signal';
import { createAppRouter, createRoutes, loadMatchedRoutes } from './app/router';
import { configureApiClient } from './lib/api-client';
import { tokenStorageKey } from './lib/token-storage-key';

configureApiClient({ baseUrl: config.apiBase });
// SPEC § 4: a stored session is checked on load. Its code loads only when there is one.
if (window.localStorage.getItem(tokenStorageKey)) {
  void import('./lib/patient-auth/auth-store').then(({ useAuthStore }) =>
    useAuthStore.getState().fetchPatient(),
  );
}
const i18n = initI18n();
const routes = createRoutes(config);

const container = document.getElementById('root');
if (!container) throw new Error('index.html lacks #root');

const queryClient = pageDataQueryClient(readPageData(document));

/**
 * Tells a page that woke on demand (ADR 025) that the app now handles it: the click that woke it
 * can run. Renders nothing, so the hydrated markup is the server's.
 */
function AppReady() {
  useEffect(() => {
    document.dispatchEvent(new Event(appReadyEvent));
  }, []);
  return null;
}

function app() {
  return (
    <StrictMode>
      <AppProviders i18n={i18n} queryClient={queryClient}>
        <RouterProvider router={createAppRouter(routes)} />
        <AppReady />
      </AppProviders>
    </StrictMode>
  );
}

// A page painted from HTML (ADR 021) is hydrated when the patient reads it in the language it was
// rendered in, once its route's code is in (then the first render is the page, as in the HTML);
// in the other language it is rendered afresh over the HTML, also once its route's code is in, so
// the HTML stays until the page replaces it rather than giving way to a spinner. No top-level
// await: it would make the bundler split the entry into many more chunks.
if (container.hasChildNodes()) {
  void loadMatchedRoutes(routes, window.location.pathname).then(() => {
    if (i18n.language === prerenderLanguage) hydrateRoot(container, app());
    else createRoot(container).render(app());
  });
} else {
  createRoot(container).render(app());
}
