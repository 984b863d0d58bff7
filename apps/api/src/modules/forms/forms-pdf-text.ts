import { safeHtmlParagraphs, sanitizeHtmlTree } from '@marpe/shared';
import { parseHtmlBody } from '@marpe/shared/parse-html';
import bidiFactory from 'bidi-js';

// Text for the submission PDF. A PDF holds glyphs at positions, not text flowing in a direction:
// the writer must break lines itself and then lay each line out in visual (left-to-right) order,
// as the Unicode Bidirectional Algorithm (UAX #9) orders it. Hebrew runs come out reversed,
// numbers and Latin words inside them keep their order, mirrored characters ("(" in a Hebrew
// run) swap.

const bidi = bidiFactory();
const graphemes = new Intl.Segmenter('he', { granularity: 'grapheme' });

export type Direction = 'ltr' | 'rtl';

/** The direction of the text's first strong character (as `dir="auto"`), else `fallback`. */
export function directionOf(text: string, fallback: Direction): Direction {
  for (const char of text) {
    const type = bidi.getBidiCharTypeName(char);
    if (type === 'L') return 'ltr';
    if (type === 'R' || type === 'AL') return 'rtl';
  }
  return fallback;
}

/** For each UTF-16 index, the start of its grapheme cluster (a letter and its marks). */
function clusterStarts(text: string): number[] {
  const starts: number[] = [];
  for (const { index, segment } of graphemes.segment(text)) {
    for (let i = 0; i < segment.length; i++) starts.push(index);
  }
  return starts;
}

/**
 * `text[start, end)` of a paragraph whose levels were resolved whole, in visual order. A
 * cluster keeps its own order (surrogate pairs, a letter before its points), since the font lays
 * each one out left to right.
 */
function visualLine(
  text: string,
  levels: ReturnType<typeof bidi.getEmbeddingLevels>,
  clusters: number[],
  start: number,
  end: number,
): string {
  const order = bidi.getReorderedIndices(text, levels, start, end - 1).slice(start, end);
  const mirrors = bidi.getMirroredCharactersMap(text, levels.levels, start, end - 1);
  const out: string[] = [];
  for (let i = 0; i < order.length;) {
    let j = i + 1;
    while (j < order.length && clusters[order[j] ?? 0] === clusters[order[i] ?? 0]) j++;
    const cluster = order.slice(i, j).sort((a, b) => a - b);
    for (const index of cluster) out.push(mirrors.get(index) ?? text[index] ?? '');
    i = j;
  }
  return out.join('');
}

/** Where a line may end: after a run of spaces. Returns [wordStart, wordEnd) spans. */
function words(text: string): [number, number][] {
  const spans: [number, number][] = [];
  const pattern = /\S+/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    spans.push([match.index, match.index + match[0].length]);
  }
  return spans;
}

/** Splits a word wider than the line between grapheme clusters. */
function splitWord(
  text: string,
  start: number,
  end: number,
  fits: (s: number, e: number) => boolean,
): [number, number][] {
  const pieces: [number, number][] = [];
  let pieceStart = start;
  let last = start;
  for (const { index, segment } of graphemes.segment(text.slice(start, end))) {
    const next = start + index + segment.length;
    if (!fits(pieceStart, next) && last > pieceStart) {
      pieces.push([pieceStart, last]);
      pieceStart = last;
    }
    last = next;
  }
  pieces.push([pieceStart, end]);
  return pieces;
}

/**
 * One paragraph (no line breaks inside) broken into lines at most `maxWidth` wide, each in
 * visual order for drawing left to right. `direction` is the paragraph's base direction.
 */
export function layoutParagraph(
  text: string,
  direction: Direction,
  maxWidth: number,
  measure: (text: string) => number,
): string[] {
  const fits = (s: number, e: number) => measure(text.slice(s, e)) <= maxWidth;
  const spans: [number, number][] = [];
  for (const [s, e] of words(text)) {
    spans.push(...(fits(s, e) ? [[s, e] as [number, number]] : splitWord(text, s, e, fits)));
  }
  const lines: [number, number][] = [];
  for (const [s, e] of spans) {
    const current = lines.at(-1);
    if (current && fits(current[0], e)) current[1] = e;
    else lines.push([s, e]);
  }
  const levels = bidi.getEmbeddingLevels(text, direction);
  const clusters = clusterStarts(text);
  return lines.map(([s, e]) => visualLine(text, levels, clusters, s, e));
}

/**
 * The text of an html field, as paragraphs, exactly as the form page shows it: the same parse (the
 * HTML standard's, every entity decoded) and the same allow-list (packages/shared: what the page
 * drops, such as a button's or a title's text, is not printed), lines as the page breaks them.
 */
export function htmlToParagraphs(html: string): string[] {
  return safeHtmlParagraphs(sanitizeHtmlTree(parseHtmlBody(html)));
}
