import { CacheProvider } from '@emotion/react';
import { useTheme, type Theme } from '@mui/material/styles';
// Not @mui/material's, which adds CSS theme variables, as in app/providers.tsx.
import { ThemeProvider } from '@mui/system';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { browserDirectionCaches, createDirectionCaches } from '../../../lib/direction-caches';
import { formLanguageAttributes, PatientLanguageProvider } from './patient-language';

type Direction = 'rtl' | 'ltr';

// Own keys, so the form's rules never mix with the page's flipped or unflipped ones.
const formCacheKeys = { rtl: 'muiformrtl', ltr: 'muiformltr' };

// The browser's, made as the page's code loads (ADR 035).
const browserCaches = browserDirectionCaches(formCacheKeys);

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
  const [caches] = useState(() => browserCaches ?? createDirectionCaches(formCacheKeys));
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
