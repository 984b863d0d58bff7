import { describe, expect, it, vi } from 'vitest';
import { sameOriginTop, type WindowLike } from './frame-escape';

function fakeWindow(origin: string, top?: WindowLike): WindowLike {
  const win: { top: WindowLike | null; self: WindowLike; location: WindowLike['location'] } = {
    top: null,
    self: undefined as unknown as WindowLike,
    location: { origin, replace: vi.fn() },
  };
  win.self = win;
  win.top = top ?? win;
  return win;
}

describe('sameOriginTop', () => {
  it('is null at top level', () => {
    expect(sameOriginTop(fakeWindow('https://marpe.example'))).toBeNull();
    expect(sameOriginTop(window)).toBeNull();
  });

  it('is the top window when framed by our own origin', () => {
    const top = fakeWindow('https://marpe.example');
    expect(sameOriginTop(fakeWindow('https://marpe.example', top))).toBe(top);
  });

  it('is null when framed by another origin, readable or not', () => {
    const other = fakeWindow('https://elsewhere.example');
    expect(sameOriginTop(fakeWindow('https://marpe.example', other))).toBeNull();
    const guarded = fakeWindow('https://elsewhere.example');
    Object.defineProperty(guarded, 'location', {
      get: () => {
        throw new DOMException('Blocked a frame', 'SecurityError');
      },
    });
    expect(sameOriginTop(fakeWindow('https://marpe.example', guarded))).toBeNull();
  });
});
