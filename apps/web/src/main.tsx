import './app/fonts.css';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { config } from './app/config';
import { initI18n, prerenderLanguage } from './app/i18n/init';
import { pageDataQueryClient, readPageData } from './app/page-data';
import { AppProviders } from './app/providers';
import { createAppRouter, createRoutes, loadMatchedRoutes } from './app/router';
import { configureApiClient, tokenStorageKey } from './lib/api-client';

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

function app() {
  return (
    <StrictMode>
      <AppProviders i18n={i18n} queryClient={queryClient}>
        <RouterProvider router={createAppRouter(routes)} />
      </AppProviders>
    </StrictMode>
  );
}

// A page prerendered at build time (ADR 021) is hydrated when the patient reads it in the
// language it was rendered in, once its route's code is in (then the first render is the page,
// as in the HTML); in the other language it is rendered afresh over the HTML. No top-level await:
// it would make the bundler split the entry into many more chunks.
if (container.hasChildNodes() && i18n.language === prerenderLanguage) {
  void loadMatchedRoutes(routes, window.location.pathname).then(() =>
    hydrateRoot(container, app()),
  );
} else {
  createRoot(container).render(app());
}
