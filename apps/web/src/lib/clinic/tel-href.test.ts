import { describe, expect, it } from 'vitest';
import { telHref } from './tel-href';

describe('telHref', () => {
  it('keeps digits and a leading plus', () => {
    expect(telHref('03-5551234')).toBe('tel:035551234');
    expect(telHref('+972 3 555 1234')).toBe('tel:+97235551234');
  });
});
