import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { ThemeProvider, useTheme, type Theme } from '@mui/material/styles';
import rtlPlugin from '@mui/stylis-plugin-rtl';
import type { ReactNode } from 'react';
import { prefixer } from 'stylis';

type Direction = 'rtl' | 'ltr';

// Own keys, so the form's rules never mix with the page's flipped or unflipped ones.
const caches = {
  rtl: createCache({ key: 'muiformrtl', stylisPlugins: [prefixer, rtlPlugin] }),
  ltr: createCache({ key: 'muiformltr' }),
};

/**
 * Lays its content out in `direction` (SPEC § 2: a form whose first step has is_ltr is left to
 * right) when that differs from the page's: the dir attribute, MUI's theme and the style cache.
 */
export function DirectionScope({
  direction,
  children,
}: {
  direction: Direction;
  children: ReactNode;
}) {
  const outer = useTheme();
  if (outer.direction === direction) return <div dir={direction}>{children}</div>;
  return (
    <CacheProvider value={caches[direction]}>
      <ThemeProvider theme={(theme: Theme) => ({ ...theme, direction })}>
        <div dir={direction}>{children}</div>
      </ThemeProvider>
    </CacheProvider>
  );
}
