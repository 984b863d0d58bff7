import '@fontsource/heebo/400.css';
import '@fontsource/heebo/500.css';
import '@fontsource/heebo/700.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { z } from 'zod';
import { initDeskI18n } from './app/i18n/init';
import { createDeskQueryClient, DeskProviders } from './app/providers';
import { createDeskRouter } from './app/router';
import { sessionQuery } from './lib/session';

// The desk checks forms with the shared zod schemas; the CSP has no 'unsafe-eval' for zod's JIT.
z.config({ jitless: true });

// Who is signed in, and the diary's code (the page most visits open), are asked for at once,
// beside the router's own work, instead of one after the other.
const queryClient = createDeskQueryClient();
void queryClient.prefetchQuery(sessionQuery);
if (/^\/desk\/?(?:diary\/?)?$/.test(window.location.pathname)) {
  void import('./features/diary/diary-page');
}

const root = document.getElementById('root');
if (!root) throw new Error('no #root');
const i18n = await initDeskI18n();
createRoot(root).render(
  <StrictMode>
    <DeskProviders i18n={i18n} queryClient={queryClient}>
      <RouterProvider router={createDeskRouter()} />
    </DeskProviders>
  </StrictMode>,
);
