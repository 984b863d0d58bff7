import { describe, expect, it } from 'vitest';
import { calendarEventText } from './calendar-event-text.js';

const appointment = {
  typeName: 'בדיקה תקופתית',
  patient: { firstName: 'דנה', lastName: 'לוי', phone: '0501234567' },
  source: 'patient' as const,
};

describe('calendarEventText', () => {
  it('names the patient, phone and type at full detail, and who booked', () => {
    expect(calendarEventText('full', appointment)).toEqual({
      summary: 'בדיקה תקופתית – דנה לוי',
      description:
        'מטופל/ת: דנה לוי\nטלפון: 050-1234567\nסוג התור: בדיקה תקופתית\nנקבע באינטרנט דרך מרפא',
    });
    expect(calendarEventText('full', { ...appointment, source: 'clinic' }).description).toContain(
      'נקבע על ידי המרפאה',
    );
  });

  it('gives initials only, then nothing about the patient or type', () => {
    expect(calendarEventText('initials', appointment)).toEqual({
      summary: 'בדיקה תקופתית – ד.ל.',
      description: 'סוג התור: בדיקה תקופתית\nנקבע באינטרנט דרך מרפא',
    });
    const minimal = calendarEventText('minimal', appointment);
    expect(minimal.summary).toBe('תור (מרפא)');
    for (const text of [minimal.summary, minimal.description]) {
      for (const secret of ['דנה', 'לוי', '050', 'בדיקה']) expect(text).not.toContain(secret);
    }
  });
});
