import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SafeHtml } from './safe-html';

function html(markup: string): string {
  return render(<SafeHtml html={markup} />).container.firstElementChild?.innerHTML ?? '';
}

describe('clinic HTML', () => {
  it('keeps allowed markup and text', () => {
    expect(html('<p>a <strong>b</strong><br>c</p><ul><li>d</li></ul>')).toBe(
      '<p>a <strong>b</strong><br>c</p><ul><li>d</li></ul>',
    );
  });

  it('drops scripts, styles, handlers, attributes and foreign markup', () => {
    const out = html(
      '<p style="color:red" onclick="x()" class="c">t</p><script>x()</script><style>*{}</style>' +
        '<img src=x onerror=x()><svg><script>x()</script></svg><iframe src="https://e"></iframe>',
    );
    expect(out).toBe('<p>t</p>');
  });

  it('keeps only http(s), mailto and tel links, opening in a new tab', () => {
    expect(html('<a href="javascript:alert(1)">x</a>')).toBe('<span>x</span>');
    expect(html('<a href="https://e.example/" onclick="x()">y</a>')).toBe(
      '<a href="https://e.example/" target="_blank" rel="noopener noreferrer">y</a>',
    );
  });

  it('turns a heading 1 into a heading 2 and unknown elements into their text', () => {
    expect(html('<h1>t</h1><marquee>m</marquee>')).toBe('<h2>t</h2><span>m</span>');
  });
});
