import { describe, expect, it } from 'vitest';
import { formatSlotStart } from './format';

describe('formatSlotStart', () => {
  it('shows the time on the clinic clock, whatever the offset it was written with', () => {
    expect(formatSlotStart('2027-03-26T09:00:00+03:00', 'Asia/Jerusalem')).toBe('26.03.2027 09:00');
    expect(formatSlotStart('2027-03-26T06:00:00Z', 'Asia/Jerusalem')).toBe('26.03.2027 09:00');
    expect(formatSlotStart('2027-03-26T06:00:00Z', 'Europe/London')).toBe('26.03.2027 06:00');
  });

  it('follows daylight saving time (Israel: +02:00 in winter, +03:00 in summer)', () => {
    expect(formatSlotStart('2027-01-10T07:30:00Z', 'Asia/Jerusalem')).toBe('10.01.2027 09:30');
    expect(formatSlotStart('2027-07-10T06:30:00Z', 'Asia/Jerusalem')).toBe('10.07.2027 09:30');
  });
});
