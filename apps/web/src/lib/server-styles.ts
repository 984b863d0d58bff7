// The style rules of a page rendered on the server (ADR 021), from the renderer to <head> and on to
// the browser's emotion caches, which take them as written (ADR 035).
import type { EmotionCache } from '@emotion/cache';

/**
 * Set on a `<style>` in the page's <head> that holds the server's rules of one emotion cache:
 * the cache's key, then the names of its rules, space-separated (emotion's own `data-emotion`
 * format, under another name so that emotion does not move the element).
 */
export const serverStylesAttribute = 'data-marpe-styles';

/** One of emotion's server-rendered `<style data-emotion="key name…">rules</style>` elements. */
const emotionStyle = /<style data-emotion="([^"]*)"[^>]*>([\s\S]*?)<\/style>/g;

/**
 * Takes emotion's `<style>` elements out of rendered markup, for the page's <head>: one element
 * per cache, its rules in the order they were written, after the global ones (CssBaseline's).
 *
 * Rendered on the server, emotion writes each component's rules as a `<style>` just before its
 * markup; a browser cache created over them moves every one into <head>, out of React's way, as
 * the app starts: some 60 elements on the clinic page, each taken out of the document's styles
 * and put back in, in the app's longest task. Here they are in <head> from the start, in one
 * element per cache that `adoptServerStyles` leaves where it is.
 */
export function hoistServerStyles(markup: string): { html: string; styles: string } {
  const globals: string[] = [];
  const caches = new Map<string, { names: string[]; rules: string[] }>();
  const html = markup.replace(emotionStyle, (element, attribute: string, rules: string) => {
    const [key = '', ...names] = attribute.split(' ');
    // A <Global>'s element (`key-global name`): its component looks for it by that attribute.
    if (key.endsWith('-global')) {
      globals.push(element);
      return '';
    }
    const cache = caches.get(key) ?? { names: [], rules: [] };
    cache.names.push(...names);
    cache.rules.push(rules);
    caches.set(key, cache);
    return '';
  });
  const styles = [...caches].map(
    ([key, { names, rules }]) =>
      `<style ${serverStylesAttribute}="${[key, ...names].join(' ')}">${rules.join('')}</style>`,
  );
  return { html, styles: globals.join('') + styles.join('') };
}

/**
 * Marks the rules the server wrote for this cache's key as written, so the cache does not write
 * them again, and has the cache write the app's own rules into the same `<style>`, which stays
 * where it is in <head>. The browser's caches are made as the app loads, before it hydrates.
 *
 * Into the same element: otherwise the cache's first rule (a patient's first tap often renders a
 * component the HTML did not have) would add a new stylesheet to the page, which has the browser
 * match every element against every rule again, inside that tap; a rule added to a stylesheet
 * the page has costs far less (figures in ADR 035).
 */
export function adoptServerStyles(cache: EmotionCache): EmotionCache {
  for (const element of document.querySelectorAll<HTMLStyleElement>(
    `style[${serverStylesAttribute}]`,
  )) {
    const [key, ...names] = (element.getAttribute(serverStylesAttribute) ?? '').split(' ');
    if (key !== cache.key) continue;
    for (const name of names) cache.inserted[name] = true;
    // emotion's sheet writes into its last element, and starts a new one when its count of rules
    // is a multiple of its limit (65,000; every rule in development): counting the server's
    // rules makes this element its last, as hydrating would have, without moving it.
    cache.sheet.tags.push(element);
    cache.sheet.ctr += element.sheet?.cssRules.length ?? 0;
  }
  return cache;
}
