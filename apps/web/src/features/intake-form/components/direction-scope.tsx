import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { useTheme, type Theme } from '@mui/material/styles';
// Not @mui/material's, which adds CSS theme variables, as in app/providers.tsx.
import { ThemeProvider } from '@mui/system';
import rtlPlugin from '@mui/stylis-plugin-rtl';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { prefixer } from 'stylis';
import { adoptServerStyles } from '../../../app/server-styles';
import { formLanguageAttributes, PatientLanguageProvider } from './patient-language';

type Direction = 'rtl' | 'ltr';

// Own keys, so the form's rules never mix with the page's flipped or unflipped ones.
function createFormCaches() {
  return {
    rtl: createCache({ key: 'muiformrtl', stylisPlugins: [prefixer, rtlPlugin] }),
    ltr: createCache({ key: 'muiformltr' }),
  };
}

// The browser's, made as the page's code loads, before React hydrates: they take the rules the
// server wrote for the page as written (ADR 035). The server makes new ones for each page it
// renders, since a cache leaves out of the HTML the rules it already wrote (ADR 021).
const browserCaches =
  typeof document === 'undefined'
    ? null
    : (({ rtl, ltr }) => ({ rtl: adoptServerStyles(rtl), ltr: adoptServerStyles(ltr) }))(
        createFormCaches(),
      );

/**
 * Lays its content out in `direction` (a form whose first step has is_ltr is left to right:
 * docs/product/intake-form.md#direction) when that differs from the page's: the dir attribute,
 * MUI's theme and the style cache. The texts the app writes inside it learn from it whether they
 * read the other way.
 */
export function DirectionScope({
  direction,
  children,
}: {
  direction: Direction;
  children: ReactNode;
}) {
  const outer = useTheme();
  const { i18n } = useTranslation();
  const [caches] = useState(() => browserCaches ?? createFormCaches());
  const content = (
    <div dir={direction} {...formLanguageAttributes(i18n.language, direction)}>
      <PatientLanguageProvider formDirection={direction}>{children}</PatientLanguageProvider>
    </div>
  );
  if (outer.direction === direction) return content;
  return (
    <CacheProvider value={caches[direction]}>
      <ThemeProvider theme={(theme: Theme) => ({ ...theme, direction })}>{content}</ThemeProvider>
    </CacheProvider>
  );
}
