import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSignatureDataUrl, signatureMaxBytes } from './signature.js';

const png =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('isSignatureDataUrl', () => {
  it('accepts png, jpeg and svg data URLs', () => {
    expect(isSignatureDataUrl(png)).toBe(true);
    expect(isSignatureDataUrl('data:image/jpeg;base64,/9j/4AAQSkZJRg==')).toBe(true);
    expect(isSignatureDataUrl('data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=')).toBe(true);
    expect(
      isSignatureDataUrl(
        `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg"></svg>')}`,
      ),
    ).toBe(true);
    expect(
      isSignatureDataUrl(
        `data:image/svg+xml;charset=utf-8,${encodeURIComponent('<?xml version="1.0"?><svg/>')}`,
      ),
    ).toBe(true);
  });

  it('refuses other types, broken base64 and non-svg text', () => {
    for (const value of [
      '',
      'data:image/gif;base64,R0lGODlhAQABAAAAACw=',
      'data:image/webp;base64,UklGRg==',
      'data:text/html;base64,PHNjcmlwdD4=',
      'data:image/png,abcd',
      'data:image/png;base64,',
      'data:image/png;base64,abc',
      'data:image/png;base64,ab!d',
      'data:image/svg+xml,hello',
      'data:image/svg+xml,%E0%A4%A',
      'https://example.com/sig.png',
      ` ${png}`,
    ]) {
      expect(isSignatureDataUrl(value), value).toBe(false);
    }
  });

  it('refuses anything over the limit, 1 MB by default', () => {
    expect(signatureMaxBytes).toBe(1_000_000);
    const big = `data:image/png;base64,${'A'.repeat(signatureMaxBytes)}`;
    expect(isSignatureDataUrl(big)).toBe(false);
    expect(isSignatureDataUrl(png, png.length)).toBe(true);
    expect(isSignatureDataUrl(png, png.length - 1)).toBe(false);
  });

  it('accepts any well-formed base64 png body', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 300 }), (bytes) =>
        isSignatureDataUrl(`data:image/png;base64,${Buffer.from(bytes).toString('base64')}`),
      ),
    );
  });
});
