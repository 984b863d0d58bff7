import { describe, expect, it } from 'vitest';
import { directionOf, htmlToParagraphs, layoutParagraph } from './forms-pdf-text.js';

/** Every character one unit wide. */
const count = (text: string) => [...text].length;
const visual = (text: string, direction: 'ltr' | 'rtl' = 'rtl', width = 1000) =>
  layoutParagraph(text, direction, width, count);

describe('layoutParagraph', () => {
  it('reverses Hebrew and keeps numbers and Latin words in their order', () => {
    expect(visual('שלום עולם')).toEqual(['םלוע םולש']);
    expect(visual('טלפון: 050-1234567')).toEqual(['050-1234567 :ןופלט']);
    expect(visual('נטילת Advil 200mg ביום')).toEqual(['םויב Advil 200mg תליטנ']);
    expect(visual('15/05/1990')).toEqual(['15/05/1990']);
  });

  it('mirrors brackets inside a Hebrew run', () => {
    expect(visual('גיל (36)')).toEqual(['(36) ליג']);
    expect(visual('שם (פרטי)')).toEqual(['(יטרפ) םש']);
  });

  it('orders a left-to-right paragraph with a Hebrew word inside', () => {
    expect(visual('Dana (דנה) Levi', 'ltr')).toEqual(['Dana (הנד) Levi']);
  });

  it('breaks lines between words, then orders each line', () => {
    expect(visual('אחת שתיים שלוש', 'rtl', 10)).toEqual(['םייתש תחא', 'שולש']);
    expect(visual('one two three', 'ltr', 8)).toEqual(['one two', 'three']);
  });

  it('splits a word longer than the line', () => {
    expect(visual('abcdefghij', 'ltr', 4)).toEqual(['abcd', 'efgh', 'ij']);
  });

  it('keeps a letter’s points after it, and surrogate pairs whole', () => {
    // שָׁלוֹם: the points must follow their letters for the font to place them.
    const shalom = 'ש\u05b8\u05c1ל\u05d5\u05b9ם';
    expect(visual(shalom)).toEqual(['ם\u05d5\u05b9לש\u05b8\u05c1']);
    expect(visual('א 😀 ב')).toEqual(['ב 😀 א']);
  });
});

describe('directionOf', () => {
  it('follows the first strong character', () => {
    expect(directionOf('Hello שלום', 'rtl')).toBe('ltr');
    expect(directionOf('123 שלום', 'ltr')).toBe('rtl');
    expect(directionOf('050-1234567', 'rtl')).toBe('rtl');
    expect(directionOf('050-1234567', 'ltr')).toBe('ltr');
  });
});

describe('htmlToParagraphs', () => {
  it('keeps the text of the markup, in paragraphs', () => {
    expect(
      htmlToParagraphs(
        '<p>אני,   <strong>דנה</strong> &amp; שות&#39;\n</p><ul><li>א</li><li>ב&nbsp;ג</li></ul>שורה<br>שנייה<script>alert(1)</script>',
      ),
    ).toEqual(["אני, דנה & שות'", '• א', '• ב ג', 'שורה', 'שנייה']);
  });

  it('prints only what the page shows, with every entity decoded as a browser decodes it', () => {
    expect(
      htmlToParagraphs(
        '<title>T</title><p>caf&eacute; &Aacute;&frac12;&hearts;&notin; &copy 2027</p>' +
          '<button>Pay</button><select><option>opt</option></select><svg><text>svg</text></svg>' +
          '<textarea>ta</textarea><noscript>ns</noscript><template>tpl</template>' +
          '<!-- c --><ol><li>one</li><li>two</li></ol><table><tr><td>a</td><td>b</td></tr></table>' +
          '<h1>Head</h1><marquee>kept</marquee><p>x<style>p{}</style>y</p>',
      ),
    ).toEqual(['café Á½♥∉ © 2027', '1. one', '2. two', 'a b', 'Head', 'kept', 'xy']);
  });
});
