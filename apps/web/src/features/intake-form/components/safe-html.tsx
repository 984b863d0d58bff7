import Box from '@mui/material/Box';
import { createElement, useMemo, type ReactNode } from 'react';

/** Elements clinic HTML may use; anything else is replaced by its text (or dropped, below). */
const allowedTags = new Set([
  'p',
  'br',
  'b',
  'strong',
  'i',
  'em',
  'u',
  's',
  'small',
  'sub',
  'sup',
  'span',
  'div',
  'ul',
  'ol',
  'li',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'hr',
  'a',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
]);
/** Dropped with their content: code, styles, embedded documents, foreign markup. */
const droppedTags = new Set([
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'template',
  'noscript',
  'svg',
  'math',
  'link',
  'meta',
  'base',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'title',
]);
/** The page's h1 is the step title: a clinic's h1 becomes an h2. */
const renamed: Record<string, string> = { h1: 'h2' };
const safeHref = /^(?:https?:|mailto:|tel:)/i;

/**
 * Parsed HTML as the allow-list reads it: a text, an element (its tag, its href if any, its
 * children), or anything else (a comment), which is dropped.
 */
export type HtmlNode = string | { tag: string; href: string | null; children: HtmlNode[] } | null;

function toReact(node: HtmlNode, key: number): ReactNode {
  if (node === null || typeof node === 'string') return node;
  const { tag } = node;
  if (droppedTags.has(tag)) return null;
  const children = node.children.map(toReact);
  const name = renamed[tag] ?? tag;
  if (!allowedTags.has(name))
    return children.length ? createElement('span', { key }, ...children) : null;
  const props: Record<string, unknown> = { key };
  if (name === 'a') {
    const href = node.href?.trim() ?? '';
    if (!safeHref.test(href)) return createElement('span', { key }, ...children);
    Object.assign(props, { href, target: '_blank', rel: 'noopener noreferrer' });
  }
  if (name === 'br' || name === 'hr') return createElement(name, props);
  return createElement(name, props, ...children);
}

function fromDom(node: Node): HtmlNode {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const element = node as Element;
  return {
    tag: element.localName,
    href: element.getAttribute('href'),
    children: [...element.childNodes].map(fromDom),
  };
}

/** The nodes of an HTML text's body. */
export type ParseHtml = (html: string) => HtmlNode[];

/** DOMParser, which runs nothing: the browser's own HTML parser. */
let parseHtml: ParseHtml = (html) =>
  [...new DOMParser().parseFromString(html, 'text/html').body.childNodes].map(fromDom);

/**
 * Where there is no DOMParser (the server's renderer, ADR 021): a parser that reads HTML exactly
 * as the browser does (the HTML standard's algorithm, scripting off as in DOMParser), so that the
 * page hydrates onto the same elements.
 */
export function setHtmlParser(parser: ParseHtml): void {
  parseHtml = parser;
}

/**
 * Trusted clinic HTML (an html field's title), rebuilt as React elements from an allow-list:
 * no attributes but a link's http(s)/mailto/tel href, no scripts, handlers or styles. Parsed by
 * a parser that runs nothing, and never written back as markup.
 */
export function sanitizeHtml(html: string): ReactNode[] {
  return parseHtml(html).map(toReact);
}

export function SafeHtml({ html }: { html: string }) {
  const content = useMemo(() => sanitizeHtml(html), [html]);
  return <Box sx={{ '& p': { my: 1 }, '& a': { color: 'primary.dark' } }}>{content}</Box>;
}
