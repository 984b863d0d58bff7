import { describe, expect, it } from 'vitest';
import { backoffDelayMs } from './backoff.js';

const backoff = { firstMs: 1000, maxMs: 10 * 60_000 };

describe('backoffDelayMs', () => {
  it('draws below a ceiling that doubles from the first delay', () => {
    expect(backoffDelayMs(backoff, 1, () => 0.999_999)).toBe(1000);
    expect(backoffDelayMs(backoff, 2, () => 0.999_999)).toBe(2000);
    expect(backoffDelayMs(backoff, 3, () => 0.5)).toBe(2000);
    expect(backoffDelayMs(backoff, 10, () => 0.999_999)).toBe(511_999);
  });

  it('caps the ceiling, however many failures', () => {
    expect(backoffDelayMs(backoff, 11, () => 0.999_999)).toBe(599_999);
    expect(backoffDelayMs(backoff, 1e9, () => 0.999_999)).toBe(599_999);
  });

  it('takes nothing below zero: a first try counts as one failure', () => {
    expect(backoffDelayMs(backoff, 0, () => 0.5)).toBe(500);
    expect(backoffDelayMs(backoff, -3, () => 0.5)).toBe(500);
  });

  it('is full jitter: anywhere from 0 to the ceiling, with Math.random', () => {
    expect(backoffDelayMs(backoff, 4, () => 0)).toBe(0);
    for (let failures = 1; failures <= 40; failures++) {
      const ceiling = Math.min(1000 * 2 ** (failures - 1), backoff.maxMs);
      for (let draw = 0; draw < 20; draw++) {
        const delay = backoffDelayMs(backoff, failures);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(ceiling);
        expect(Number.isInteger(delay)).toBe(true);
      }
    }
  });
});
