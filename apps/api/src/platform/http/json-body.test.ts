import { describe, expect, it } from 'vitest';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from './json-body.js';

const nested = (depth: number) => `${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`;

describe('jsonDepthExceeds', () => {
  it('counts objects and arrays alike, up to the limit included', () => {
    expect(jsonDepthExceeds(nested(MAX_JSON_DEPTH / 2), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonDepthExceeds(nested(MAX_JSON_DEPTH / 2) + '', MAX_JSON_DEPTH - 1)).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ a: '[[[[{{{{', b: 'say \\"[[[[\\"', c: '\\' });
    expect(jsonDepthExceeds(text, 1)).toBe(false);
  });

  it('measures depth, not the number of brackets', () => {
    expect(jsonDepthExceeds(JSON.stringify(Array.from({ length: 10_000 }, () => [])), 2)).toBe(
      false,
    );
  });
});
