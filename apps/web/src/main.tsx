import './app/fonts.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { config } from './app/config';
import { initI18n } from './app/i18n/init';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { configureApiClient, tokenStorageKey } from './lib/api-client';

configureApiClient({ baseUrl: config.apiBase });
// SPEC § 4: a stored session is checked on load. Its code (and zod) loads only when there is one.
if (window.localStorage.getItem(tokenStorageKey)) {
  void import('./lib/patient-auth/auth-store').then(({ useAuthStore }) =>
    useAuthStore.getState().fetchPatient(),
  );
}
const i18n = initI18n();
const router = createAppRouter(config);

const container = document.getElementById('root');
if (!container) throw new Error('index.html lacks #root');

createRoot(container).render(
  <StrictMode>
    <AppProviders i18n={i18n}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
