import { describe, expect, it } from 'vitest';
import { appointmentDay, formatAppointmentDate, formatAppointmentTimes } from './format';

describe('appointment formats', () => {
  it('shows the date DD.MM.YYYY on the clinic clock', () => {
    expect(formatAppointmentDate('2027-03-26T09:00:00+03:00', 'Asia/Jerusalem')).toBe('26.03.2027');
    // 23:30 UTC is already the next day in Israel.
    expect(formatAppointmentDate('2027-01-04T23:30:00Z', 'Asia/Jerusalem')).toBe('05.01.2027');
    expect(appointmentDay('2027-01-04T23:30:00Z', 'Asia/Jerusalem')).toBe('2027-01-05');
  });

  it('shows start and end HH:mm on the clinic clock', () => {
    expect(
      formatAppointmentTimes(
        '2027-03-26T09:00:00+03:00',
        '2027-03-26T09:30:00+03:00',
        'Asia/Jerusalem',
      ),
    ).toBe('09:00 – 09:30');
    expect(
      formatAppointmentTimes('2027-01-04T07:00:00Z', '2027-01-04T07:45:00Z', 'Asia/Jerusalem'),
    ).toBe('09:00 – 09:45');
  });
});
