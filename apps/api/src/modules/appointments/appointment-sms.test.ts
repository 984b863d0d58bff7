import { describe, expect, it } from 'vitest';
import { appointmentSmsMessage } from './appointment-sms.js';

const details = {
  clinicName: 'מרפאת השיניים',
  street: 'הרצל',
  homeNumber: '12',
  city: 'תל אביב-יפו',
  timezone: 'Asia/Jerusalem',
  caregiverName: 'ד"ר דנה',
  typeName: 'בדיקה',
};

const dateLine = (start: string, timezone = details.timezone) =>
  appointmentSmsMessage({ ...details, timezone, start: Date.parse(start) }, 'he').split('\n')[2];

describe('appointmentSmsMessage', () => {
  it('names the clinic, type, caregiver, date, time and address in Hebrew', () => {
    expect(
      appointmentSmsMessage({ ...details, start: Date.parse('2027-03-25T09:00:00+02:00') }, 'he'),
    ).toBe(`פרטי התור שלך במרפאת השיניים:
בדיקה עם ד"ר דנה
בתאריך 25/03/2027 בשעה 09:00
כתובת: הרצל 12, תל אביב-יפו`);
  });

  it('speaks English to a patient who booked in English', () => {
    expect(
      appointmentSmsMessage({ ...details, start: Date.parse('2027-03-25T09:00:00+02:00') }, 'en'),
    ).toBe(`Your appointment at מרפאת השיניים:
בדיקה with ד"ר דנה
On 25/03/2027 at 09:00
Address: הרצל 12, תל אביב-יפו`);
  });

  it('reads the clinic’s clocks on either side of a change', () => {
    // Clocks go forward on 2027-03-26 at 02:00 and back on 2027-10-31 at 02:00.
    expect(dateLine('2027-03-25T22:30:00Z')).toBe('בתאריך 26/03/2027 בשעה 00:30');
    expect(dateLine('2027-03-26T00:30:00Z')).toBe('בתאריך 26/03/2027 בשעה 03:30');
    expect(dateLine('2027-10-30T22:30:00Z')).toBe('בתאריך 31/10/2027 בשעה 01:30');
    expect(dateLine('2027-10-30T23:30:00Z')).toBe('בתאריך 31/10/2027 בשעה 01:30');
    expect(dateLine('2027-11-01T06:00:00Z')).toBe('בתאריך 01/11/2027 בשעה 08:00');
  });

  it('uses the clinic’s own zone', () => {
    expect(dateLine('2027-03-25T07:00:00Z', 'Europe/London')).toBe('בתאריך 25/03/2027 בשעה 07:00');
  });
});
