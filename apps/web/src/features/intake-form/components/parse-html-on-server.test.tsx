import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { parseHtmlOnServer } from './parse-html-on-server';
import { sanitizeHtml, setHtmlParser } from './safe-html';

/** Clinic HTML that a parser could read in more than one way. */
const samples = [
  '<p>a <strong>b</strong><br>c</p><ul><li>d</li></ul>',
  '<p>open <b>bold <i>both</p>after',
  '<table><tr><td>cell</td></tr></table><ol><li>one<li>two</ol>',
  '<p>one<p>two<div>three</div>',
  '<noscript><b>n</b></noscript><a href=" https://e.example/ ">link</a><!-- note -->',
  '<h1>t</h1><marquee>m</marquee><script>x()</script><svg><a href="https://e">s</a></svg>',
  'text &amp; &lt;tag&gt; &nbsp; &#x5d0;',
];

const rendered = (html: string) => renderToStaticMarkup(<>{sanitizeHtml(html)}</>);

describe("the server's HTML parser", () => {
  it('reads clinic HTML into what the browser makes of it, so the page hydrates', () => {
    // This file's SafeHtml parses with the browser's DOMParser until the server's is set.
    const inTheBrowser = samples.map(rendered);
    setHtmlParser(parseHtmlOnServer);
    expect(samples.map(rendered)).toEqual(inTheBrowser);
    expect(inTheBrowser[1]).toBe('<p>open <b>bold <i>both</i></b></p><b><i>after</i></b>');
  });
});
