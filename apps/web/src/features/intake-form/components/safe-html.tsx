import type { HtmlNode, SafeNode } from '@marpe/shared/rules';
import { sanitizeHtmlTree } from '@marpe/shared/rules';
import Box from '@mui/material/Box';
import { createElement, useMemo, type ReactNode } from 'react';

export type { HtmlNode } from '@marpe/shared/rules';

/** A kept node as a React element: the allow-list (packages/shared) decided what it is. */
function toReact(node: SafeNode, key: number): ReactNode {
  if (typeof node === 'string') return node;
  const props: Record<string, unknown> = { key };
  if (node.tag === 'a') {
    Object.assign(props, { href: node.href, target: '_blank', rel: 'noopener noreferrer' });
  }
  if (node.tag === 'br' || node.tag === 'hr') return createElement(node.tag, props);
  return createElement(node.tag, props, ...node.children.map(toReact));
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
 * Trusted clinic HTML (an html field's title), rebuilt as React elements from the allow-list the
 * signed PDF prints by too (`sanitizeHtmlTree`): no attributes but a link's http(s)/mailto/tel
 * href, no scripts, handlers or styles. Parsed by a parser that runs nothing, and never written
 * back as markup.
 */
export function sanitizeHtml(html: string): ReactNode[] {
  return sanitizeHtmlTree(parseHtml(html)).map(toReact);
}

export function SafeHtml({ html }: { html: string }) {
  const content = useMemo(() => sanitizeHtml(html), [html]);
  return <Box sx={{ '& p': { my: 1 }, '& a': { color: 'primary.dark' } }}>{content}</Box>;
}
