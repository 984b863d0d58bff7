import { describe, expect, it } from 'vitest';
import { exportSignature, SignatureImageTypeError, type ExportablePad } from './signature-export';

function fakePad(empty: boolean): ExportablePad & { calls: unknown[][] } {
  const calls: unknown[][] = [];
  return {
    calls,
    isEmpty: () => empty,
    toDataURL: (...args: unknown[]) => {
      calls.push(args);
      return `data:${String(args[0])};base64,AAAA`;
    },
  };
}

describe('signature export', () => {
  it('exports png by default at quality 0.92', () => {
    const pad = fakePad(false);
    expect(exportSignature(pad)).toEqual({ isEmpty: false, data: 'data:image/png;base64,AAAA' });
    expect(pad.calls).toEqual([['image/png', 0.92]]);
  });

  it('exports jpeg and svg', () => {
    expect(exportSignature(fakePad(false), 'image/jpeg', 0.5)).toMatchObject({ isEmpty: false });
    const svg = fakePad(false);
    expect(exportSignature(svg, 'image/svg+xml')).toMatchObject({ isEmpty: false });
    expect(svg.calls).toEqual([['image/svg+xml']]);
  });

  it('says empty when nothing is drawn', () => {
    expect(exportSignature(fakePad(true))).toEqual({ isEmpty: true });
  });

  it.each(['image/gif', 'image/webp', 'text/plain', ''])('refuses %j', (type) => {
    expect(() => exportSignature(fakePad(false), type)).toThrow(SignatureImageTypeError);
    expect(() => exportSignature(fakePad(true), type)).toThrow('image type is incorrect');
  });
});
