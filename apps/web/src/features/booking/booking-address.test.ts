import { describe, expect, it } from 'vitest';
import { presetTimeOf, rescheduleIdOf } from './booking-address';

describe('presetTimeOf (a waitlist offer link’s time)', () => {
  it('takes HH:mm and nothing else', () => {
    expect(presetTimeOf('09:00')).toBe('09:00');
    expect(presetTimeOf('23:59')).toBe('23:59');
    for (const bad of [null, '', '9:00', '24:00', '09:60', '09:00:00', '0900', ' 09:00']) {
      expect(presetTimeOf(bad)).toBeNull();
    }
  });
});

describe('rescheduleIdOf (the appointment "change time" moves)', () => {
  it('takes a positive 32-bit id and nothing else', () => {
    expect(rescheduleIdOf('5')).toBe(5);
    expect(rescheduleIdOf('2147483647')).toBe(2_147_483_647);
    for (const bad of [null, '', '0', '-1', '05', '1.5', '2147483648', ' 5']) {
      expect(rescheduleIdOf(bad)).toBeNull();
    }
  });
});
