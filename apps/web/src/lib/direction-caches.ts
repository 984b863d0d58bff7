import createCache, { type EmotionCache } from '@emotion/cache';
import rtlPlugin from '@mui/stylis-plugin-rtl';
import { prefixer } from 'stylis';
import { adoptServerStyles } from './server-styles';

export type DirectionCaches = Record<'rtl' | 'ltr', EmotionCache>;

/** The keys of a pair of caches: each names its rules, so no two caches' rules mix. */
export interface DirectionCacheKeys {
  rtl: string;
  ltr: string;
}

/**
 * A right-to-left cache (MUI's rules flipped) and a left-to-right one, under different keys, so
 * that a change of direction never mixes flipped and unflipped rules. The server makes new ones
 * for each page it renders, since a cache leaves out of the HTML the rules it already wrote
 * (ADR 021).
 */
export function createDirectionCaches(keys: DirectionCacheKeys): DirectionCaches {
  return {
    rtl: createCache({ key: keys.rtl, stylisPlugins: [prefixer, rtlPlugin] }),
    ltr: createCache({ key: keys.ltr }),
  };
}

/**
 * The browser's, to be made as the code that uses them loads, before React hydrates: they take
 * the rules the server wrote for the page as written (ADR 035). Null on the server.
 */
export function browserDirectionCaches(keys: DirectionCacheKeys): DirectionCaches | null {
  if (typeof document === 'undefined') return null;
  const { rtl, ltr } = createDirectionCaches(keys);
  return { rtl: adoptServerStyles(rtl), ltr: adoptServerStyles(ltr) };
}
