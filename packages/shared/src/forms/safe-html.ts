/**
 * The allow-list of an html field (trusted clinic markup, docs/forms.md#field-types): what the form
 * page renders and what the signed PDF prints are built from the same parse and this same list, so
 * the signed record holds exactly the text the patient saw (ADR 027). Pure: the parse is the
 * caller's (the browser's DOMParser, or parse5 on the server: `@marpe/shared/parse-html`), both the
 * HTML standard's algorithm, so every entity is decoded and every tag read as a browser reads it.
 */

/**
 * Parsed HTML as the allow-list reads it: a text, an element (its tag, its href if any, its
 * children), or anything else (a comment), which is dropped.
 */
export type HtmlNode = string | { tag: string; href: string | null; children: HtmlNode[] } | null;

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

/** Dropped with their content: code, styles, embedded documents, foreign markup, controls. */
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
const renamed: Readonly<Record<string, string>> = { h1: 'h2' };
const safeHref = /^(?:https?:|mailto:|tel:)/i;

/**
 * An element the allow-list kept: an allowed tag (a link only with a safe href), or a `span`
 * holding the text of one it did not.
 */
export interface SafeElement {
  tag: string;
  /** `a` only: its http(s), mailto or tel address. */
  href?: string;
  children: SafeNode[];
}
export type SafeNode = string | SafeElement;

function sanitizeNode(node: HtmlNode): SafeNode | null {
  if (node === null || typeof node === 'string') return node;
  if (droppedTags.has(node.tag)) return null;
  const children = sanitizeHtmlTree(node.children);
  const tag = renamed[node.tag] ?? node.tag;
  if (!allowedTags.has(tag)) return children.length ? { tag: 'span', children } : null;
  if (tag === 'a') {
    const href = node.href?.trim() ?? '';
    return safeHref.test(href) ? { tag, href, children } : { tag: 'span', children };
  }
  if (tag === 'br' || tag === 'hr') return { tag, children: [] };
  return { tag, children };
}

/** The allow-list over parsed nodes: what may be shown, nothing else. */
export function sanitizeHtmlTree(nodes: readonly HtmlNode[]): SafeNode[] {
  return nodes.map(sanitizeNode).filter((node): node is SafeNode => node !== null);
}

/** Tags a browser lays out as blocks (its default style sheet): each starts a new line. */
const blockTags = new Set([
  'p',
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
  'table',
  'thead',
  'tbody',
  'tr',
]);

/**
 * The text of kept nodes as the page shows it, one string per line: blocks and `<br>` break lines,
 * list items start with their marker (`•`, or `1.` in an ordered list), table cells are spaced,
 * white space collapses as CSS `white-space: normal` collapses it (a no-break space prints as a
 * space), empty lines are left out.
 */
export function safeHtmlParagraphs(nodes: readonly SafeNode[]): string[] {
  const lines: string[] = [];
  let current = '';
  const breakLine = () => {
    lines.push(current);
    current = '';
  };
  const walk = (node: SafeNode, list: { ordered: boolean; next: number } | null) => {
    if (typeof node === 'string') {
      current += node;
      return;
    }
    if (node.tag === 'br') {
      breakLine();
      return;
    }
    const block = blockTags.has(node.tag);
    if (block) breakLine();
    if (node.tag === 'li') {
      current += list?.ordered ? `${list.next++}. ` : '• ';
    }
    const inner =
      node.tag === 'ul' || node.tag === 'ol' ? { ordered: node.tag === 'ol', next: 1 } : list;
    for (const child of node.children) walk(child, inner);
    if (node.tag === 'td' || node.tag === 'th') current += ' ';
    if (block) breakLine();
  };
  for (const node of nodes) walk(node, null);
  breakLine();
  return lines
    .map((line) =>
      line
        .replace(/[\t\n\f\r ]+/g, ' ')
        .replace(/\u00a0/g, ' ')
        .trim(),
    )
    .filter((line) => line !== '');
}
