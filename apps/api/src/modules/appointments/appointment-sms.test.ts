import { describe, expect, it } from 'vitest';
import { appointmentSmsMessage, changeNoticeMessage } from './appointment-sms.js';

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

describe('changeNoticeMessage', () => {
  const subject = {
    clinicName: 'מרפאת השיניים',
    caregiverName: 'ד"ר דנה',
    timezone: 'Asia/Jerusalem',
    start: Date.parse('2027-03-25T09:00:00+02:00'),
    link: 'https://marpe.example/appointments/4',
  };
  const before = Date.parse('2027-03-24T16:30:00+02:00');

  it('tells of a booking in Hebrew and English, linking to the patient’s appointments', () => {
    expect(changeNoticeMessage(subject, { kind: 'booked' }, 'he')).toBe(
      'נקבע לך תור במרפאת השיניים אצל ד"ר דנה ל-25/03/2027 בשעה 09:00.\nהתורים שלי: https://marpe.example/appointments/4',
    );
    expect(changeNoticeMessage(subject, { kind: 'booked' }, 'en')).toBe(
      'Your appointment at מרפאת השיניים with ד"ר דנה is booked for 25/03/2027 at 09:00.\nMy appointments: https://marpe.example/appointments/4',
    );
  });

  it('names the old and the new time of a move', () => {
    const moved = { kind: 'moved' as const, previousStart: before, previousCaregiverName: null };
    expect(changeNoticeMessage(subject, moved, 'he')).toBe(
      'התור שלך במרפאת השיניים הועבר מ-24/03/2027 16:30 ל-25/03/2027 בשעה 09:00 אצל ד"ר דנה.\nהתורים שלי: https://marpe.example/appointments/4',
    );
    expect(changeNoticeMessage(subject, moved, 'en')).toBe(
      'Your appointment at מרפאת השיניים was moved from 24/03/2027 16:30 to 25/03/2027 09:00 with ד"ר דנה.\nMy appointments: https://marpe.example/appointments/4',
    );
  });

  it('names the caregiver before the move when the move changed it', () => {
    const moved = { kind: 'moved' as const, previousStart: before, previousCaregiverName: 'יוסי' };
    expect(changeNoticeMessage(subject, moved, 'he')).toContain('מ-24/03/2027 16:30 אצל יוסי ל-');
    expect(changeNoticeMessage(subject, moved, 'en')).toContain(
      'from 24/03/2027 16:30 with יוסי to 25/03/2027 09:00 with ד"ר דנה',
    );
  });

  it('tells of a cancellation with where to book another', () => {
    expect(changeNoticeMessage(subject, { kind: 'cancelled' }, 'he')).toBe(
      'התור שלך במרפאת השיניים אצל ד"ר דנה ב-25/03/2027 בשעה 09:00 בוטל.\nלקביעת תור אחר: https://marpe.example/appointments/4',
    );
    expect(changeNoticeMessage(subject, { kind: 'cancelled' }, 'en')).toBe(
      'Your appointment at מרפאת השיניים with ד"ר דנה on 25/03/2027 at 09:00 was cancelled.\nTo book another: https://marpe.example/appointments/4',
    );
  });

  it('fits one SMS segment in English with short names (160 GSM-7 characters)', () => {
    const latin = { ...subject, clinicName: 'Smile Dental', caregiverName: 'Dr. Dana Levi' };
    const moved = { kind: 'moved' as const, previousStart: before, previousCaregiverName: null };
    for (const change of [{ kind: 'booked' as const }, { kind: 'cancelled' as const }, moved]) {
      expect(changeNoticeMessage(latin, change, 'en').length).toBeLessThanOrEqual(160);
    }
  });

  it('reads the clinic’s clocks', () => {
    expect(
      changeNoticeMessage({ ...subject, timezone: 'Europe/London' }, { kind: 'booked' }, 'en'),
    ).toContain('25/03/2027 at 07:00');
  });
});
