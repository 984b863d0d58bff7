import { describe, expect, it } from 'vitest';
import { formatDate, formatLocalDate, formatTime } from './format';

describe('booking formats', () => {
  it("shows an instant's date as DD.MM.YYYY on the clinic clock", () => {
    expect(formatDate('2026-12-01T06:00:00Z', 'Asia/Jerusalem')).toBe('01.12.2026');
    // 22:30 UTC is already the next day in Israel.
    expect(formatDate('2026-11-28T22:30:00Z', 'Asia/Jerusalem')).toBe('29.11.2026');
    expect(formatTime('2026-11-28T22:30:00Z', 'Asia/Jerusalem')).toBe('00:30');
  });

  it('shows a calendar date as DD.MM.YYYY, the same as an instant', () => {
    expect(formatLocalDate('2026-12-01')).toBe('01.12.2026');
    expect(formatLocalDate('2026-12-01')).toBe(
      formatDate('2026-12-01T06:00:00Z', 'Asia/Jerusalem'),
    );
  });
});
