import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import rtlPlugin from '@mui/stylis-plugin-rtl';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { useMemo, useState, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { prefixer } from 'stylis';
import { ApiError } from '../lib/api-client';
import { directionOf, toLanguage } from './i18n/init';
import { createAppTheme } from './theme';

// Two caches with different keys, so switching language never mixes flipped and unflipped rules.
const emotionCaches = {
  rtl: createCache({ key: 'muirtl', stylisPlugins: [prefixer, rtlPlugin] }),
  ltr: createCache({ key: 'mui' }),
};

function createQueryClient(): QueryClient {
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

function DirectionalTheme({ children }: { children: ReactNode }) {
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

export function AppProviders({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <DirectionalTheme>{children}</DirectionalTheme>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
