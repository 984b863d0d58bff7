import '@fontsource/heebo/400.css';
import '@fontsource/heebo/500.css';
import '@fontsource/heebo/700.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { z } from 'zod';
import { initDeskI18n } from './app/i18n/init';
import { DeskProviders } from './app/providers';
import { createDeskRouter } from './app/router';

// The desk checks forms with the shared zod schemas; the CSP has no 'unsafe-eval' for zod's JIT.
z.config({ jitless: true });

const root = document.getElementById('root');
if (!root) throw new Error('no #root');
const i18n = await initDeskI18n();
createRoot(root).render(
  <StrictMode>
    <DeskProviders i18n={i18n}>
      <RouterProvider router={createDeskRouter()} />
    </DeskProviders>
  </StrictMode>,
);
