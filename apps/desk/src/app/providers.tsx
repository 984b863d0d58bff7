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
import { ApiError } from '../lib/api';
import { directionOf, toLanguage } from './i18n/languages';
import { createDeskTheme } from './theme';

// Two caches with different keys, so switching language never mixes flipped and unflipped rules.
const caches = {
  rtl: createCache({ key: 'deskrtl', stylisPlugins: [prefixer, rtlPlugin] }),
  ltr: createCache({ key: 'desk' }),
};

export function createDeskQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // A 4xx will not change on a second try.
        retry: (failureCount, error) =>
          failureCount < 2 && !(error instanceof ApiError && error.status < 500),
        staleTime: 15_000,
      },
    },
  });
}

function DirectionalTheme({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const direction = directionOf(toLanguage(i18n.language));
  const theme = useMemo(() => createDeskTheme(direction), [direction]);
  return (
    <CacheProvider value={caches[direction]}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        {children}
      </ThemeProvider>
    </CacheProvider>
  );
}

export function DeskProviders({
  i18n,
  queryClient: given,
  children,
}: {
  i18n: I18n;
  queryClient?: QueryClient;
  children: ReactNode;
}) {
  const [queryClient] = useState(() => given ?? createDeskQueryClient());
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <DirectionalTheme>{children}</DirectionalTheme>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
