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

function toReact(node: Node, key: number): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const element = node as Element;
  const tag = element.localName;
  if (droppedTags.has(tag)) return null;
  const children = [...element.childNodes].map(toReact);
  const name = renamed[tag] ?? tag;
  if (!allowedTags.has(name))
    return children.length ? createElement('span', { key }, ...children) : null;
  const props: Record<string, unknown> = { key };
  if (name === 'a') {
    const href = element.getAttribute('href')?.trim() ?? '';
    if (!safeHref.test(href)) return createElement('span', { key }, ...children);
    Object.assign(props, { href, target: '_blank', rel: 'noopener noreferrer' });
  }
  if (name === 'br' || name === 'hr') return createElement(name, props);
  return createElement(name, props, ...children);
}

/**
 * Trusted clinic HTML (an html field's title), rebuilt as React elements from an allow-list:
 * no attributes but a link's http(s)/mailto/tel href, no scripts, handlers or styles. Parsed by
 * DOMParser, which runs nothing, and never written back as markup.
 */
export function sanitizeHtml(html: string): ReactNode[] {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return [...doc.body.childNodes].map(toReact);
}

export function SafeHtml({ html }: { html: string }) {
  const content = useMemo(() => sanitizeHtml(html), [html]);
  return <Box sx={{ '& p': { my: 1 }, '& a': { color: 'primary.dark' } }}>{content}</Box>;
}
