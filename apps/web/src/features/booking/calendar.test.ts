import { describe, expect, it } from 'vitest';
import { googleCalendarUrl, icsFile, type CalendarEvent } from './calendar';

const event: CalendarEvent = {
  uid: 'appointment-42@marpe',
  title: 'טיפול שורש עם ד״ר נועה ברק במרפאת שיניים לב העיר; בדיקה, ניקוי\nוהמשך',
  // 09:30–10:30 in Israel on a summer day: 06:30–07:30 UTC.
  start: '2027-06-14T09:30:00+03:00',
  end: '2027-06-14T10:30:00+03:00',
  location: 'שדרות רוטשילד 45, תל אביב-יפו',
};

describe('googleCalendarUrl', () => {
  it('is a TEMPLATE link with the title, compact UTC times and the address', () => {
    const url = new URL(googleCalendarUrl(event));
    expect(url.origin + url.pathname).toBe('https://calendar.google.com/calendar/render');
    expect(url.searchParams.get('action')).toBe('TEMPLATE');
    expect(url.searchParams.get('text')).toBe(event.title);
    expect(url.searchParams.get('dates')).toBe('20270614T063000Z/20270614T073000Z');
    expect(url.searchParams.get('location')).toBe(event.location);
  });
});

describe('icsFile', () => {
  const ics = icsFile(event, new Date('2027-06-01T12:00:00Z'));
  const unfolded = ics.replace(/\r\n /g, '');

  it('is one VEVENT in UTC, with CRLF line ends', () => {
    expect(ics.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    expect(ics.endsWith('END:VEVENT\r\nEND:VCALENDAR\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(unfolded).toContain('\r\nUID:appointment-42@marpe\r\n');
    expect(unfolded).toContain('\r\nDTSTAMP:20270601T120000Z\r\n');
    expect(unfolded).toContain('\r\nDTSTART:20270614T063000Z\r\n');
    expect(unfolded).toContain('\r\nDTEND:20270614T073000Z\r\n');
  });

  it('escapes text and folds lines at 75 octets without splitting a letter', () => {
    expect(unfolded).toContain(
      '\r\nSUMMARY:טיפול שורש עם ד״ר נועה ברק במרפאת שיניים לב העיר\\; בדיקה\\, ניקוי\\nוהמשך\r\n',
    );
    expect(unfolded).toContain('\r\nLOCATION:שדרות רוטשילד 45\\, תל אביב-יפו\r\n');
    for (const line of ics.split('\r\n')) {
      expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
      expect(line).not.toContain('\uFFFD');
    }
  });
});
