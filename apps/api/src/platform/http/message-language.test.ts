import { describe, expect, it } from 'vitest';
import { messageLanguageOf } from './message-language.js';

describe('messageLanguageOf', () => {
  it.each([
    [undefined, 'he'],
    ['', 'he'],
    ['en', 'en'],
    ['he', 'he'],
    ['en-US,en;q=0.9', 'en'],
    ['fr-FR, en;q=0.5, he;q=0.8', 'he'],
    ['fr, de', 'he'],
    ['EN-gb', 'en'],
    ['en;q=0, he;q=0.1', 'he'],
    ['en;q=abc', 'he'],
  ])('%j → %s', (header, expected) => {
    expect(messageLanguageOf(header)).toBe(expected);
  });
});
