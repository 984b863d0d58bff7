import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanText, escapeHtml, resolvePlaceholders } from './text.js';

describe('cleanText', () => {
  it('strips control, format and unassigned characters and trims', () => {
    expect(cleanText('  ישראל ישראלי \n')).toBe('ישראל ישראלי');
    expect(cleanText('a\u0000b\u0007c\u001bd\u007fe\u0085')).toBe('abcde');
    expect(cleanText('\u200fשלום\u200e\u202a\u202c')).toBe('שלום');
    expect(cleanText('a\u200bb\ufeffc')).toBe('abc');
    expect(cleanText('x\u0378y')).toBe('xy'); // unassigned
    expect(cleanText('x\ud800y')).toBe('xy'); // lone surrogate
    expect(cleanText('line\r\nbreak\ttab')).toBe('linebreaktab');
  });

  it('keeps letters in any script, digits, punctuation, emoji and inner spaces', () => {
    expect(cleanText('דנה כהן-לוי, 050-1234567 😀 café')).toBe('דנה כהן-לוי, 050-1234567 😀 café');
  });

  it('leaves no control, format or unassigned character, no outer space, and is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const cleaned = cleanText(text);
        return (
          !/[\p{Cc}\p{Cf}\p{Cn}\p{Cs}]/u.test(cleaned) &&
          cleaned === cleaned.trim() &&
          cleanText(cleaned) === cleaned
        );
      }),
      { numRuns: 50 }, // binary strings are slow to generate
    );
  });

  it('changes nothing in clean text', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[א-תa-zA-Z0-9][א-תa-zA-Z0-9 .,@-]*[א-תa-zA-Z0-9]$/),
        (text) => cleanText(text) === text,
      ),
    );
  });
});

describe('resolvePlaceholders', () => {
  const initData = { firstName: 'דנה', 'patient.id': '123', empty: '' };

  it('replaces {{initData.key}}, with or without spaces inside the braces', () => {
    expect(resolvePlaceholders('שלום {{initData.firstName}}!', initData)).toBe('שלום דנה!');
    expect(resolvePlaceholders('{{ initData.firstName }}/{{initData.firstName  }}', initData)).toBe(
      'דנה/דנה',
    );
    expect(resolvePlaceholders('{{initData.patient.id}}', initData)).toBe('123');
  });

  it('replaces a missing key with nothing, including inherited names', () => {
    expect(resolvePlaceholders('[{{initData.lastName}}]', initData)).toBe('[]');
    expect(resolvePlaceholders('[{{initData.constructor}}{{initData.__proto__}}]', initData)).toBe(
      '[]',
    );
    expect(resolvePlaceholders('[{{initData.empty}}]', initData)).toBe('[]');
  });

  it('leaves other braces alone', () => {
    for (const text of [
      '{{firstName}}',
      '{initData.firstName}',
      '{{ initData. firstName }}',
      '{{initData.}}',
    ]) {
      expect(resolvePlaceholders(text, initData), text).toBe(text);
    }
  });

  it('escapes inserted values for html when asked, and only those', () => {
    expect(
      resolvePlaceholders('<b>{{initData.x}}</b>', { x: '<script>"&\'' }, { escape: true }),
    ).toBe('<b>&lt;script&gt;&quot;&amp;&#39;</b>');
  });

  it('inserts any value verbatim, and text without placeholders is unchanged', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string().filter((s) => !s.includes('{{')),
        (value, text) => {
          return (
            resolvePlaceholders(`${text}{{initData.k}}${text}`, { k: value }) ===
              `${text}${value}${text}` && resolvePlaceholders(text, { k: value }) === text
          );
        },
      ),
    );
  });

  it('escapeHtml leaves no markup character', () => {
    fc.assert(fc.property(fc.string(), (text) => !/[<>"']/.test(escapeHtml(text))));
  });
});
