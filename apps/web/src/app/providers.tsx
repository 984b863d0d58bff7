import { CacheProvider } from '@emotion/react';
import CssBaseline from '@mui/material/CssBaseline';
// The one @mui/material's ThemeProvider wraps: that one adds the provider of CSS theme variables
// and colour schemes, 2.5 KiB brotli of start-up code, and the app's theme (./theme) uses neither.
// A theme with `cssVariables` or `colorSchemes` would need @mui/material's again.
import { ThemeProvider } from '@mui/system';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { useMemo, useState, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { ApiError } from '../lib/api-client';
import {
  browserDirectionCaches,
  createDirectionCaches,
  type DirectionCaches,
} from '../lib/direction-caches';
import { directionOf, toLanguage } from '../lib/languages';
import { createAppTheme } from './theme';

const appCacheKeys = { rtl: 'muirtl', ltr: 'mui' };

/** The app's caches; the prerenderer makes new ones for each page. */
export function createEmotionCaches(): DirectionCaches {
  return createDirectionCaches(appCacheKeys);
}

// The browser's, made as the app loads (ADR 035).
const browserCaches = browserDirectionCaches(appCacheKeys);

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // A 4xx will not change on a second try (a 404 must reach the expired page at once).
        retry: (failureCount, error) =>
          failureCount < 1 &&
          !(error instanceof ApiError && error.status >= 400 && error.status < 500),
        refetchOnWindowFocus: false,
      },
    },
  });
}

function DirectionalTheme({
  emotionCaches,
  children,
}: {
  emotionCaches: DirectionCaches;
  children: ReactNode;
}) {
  const { i18n } = useTranslation();
  const direction = directionOf(toLanguage(i18n.language));
  const theme = useMemo(() => createAppTheme(direction), [direction]);
  return (
    <CacheProvider value={emotionCaches[direction]}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        {children}
      </ThemeProvider>
    </CacheProvider>
  );
}

/**
 * `emotionCaches`: the prerenderer's own for each page; a cache remembers the rules it wrote,
 * and would leave them out of the next page's HTML. `queryClient`: one already holding the data
 * a page was rendered on the server with (ADR 021).
 */
export function AppProviders({
  i18n,
  emotionCaches,
  queryClient: givenQueryClient,
  children,
}: {
  i18n: I18n;
  emotionCaches?: DirectionCaches;
  queryClient?: QueryClient;
  children: ReactNode;
}) {
  const [queryClient] = useState(() => givenQueryClient ?? createQueryClient());
  const caches = emotionCaches ?? browserCaches;
  if (!caches) throw new Error('AppProviders needs emotionCaches outside the browser');
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <DirectionalTheme emotionCaches={caches}>{children}</DirectionalTheme>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
