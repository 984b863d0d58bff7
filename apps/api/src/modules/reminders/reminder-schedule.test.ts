import { describe, expect, it } from 'vitest';
import { formatZonedIso, zonedToEpoch } from '../../platform/zoned-time.js';
import { quietSpanAt } from '../messaging/quiet-time.js';
import { restSpans } from '../messaging/rest-days.js';
import {
  allowedDueAt,
  nominalDueAt,
  planReminders,
  type ReminderPolicy,
} from './reminder-schedule.js';

const TZ = 'Asia/Jerusalem';
const HOUR = 3_600_000;
const at = (local: string) => zonedToEpoch(local, TZ);
const iso = (ms: number) => formatZonedIso(ms, TZ);

const policy = (overrides: Partial<ReminderPolicy> = {}): ReminderPolicy => ({
  leadMinutes: [1440, 120],
  quietStart: '21:00',
  quietEnd: '08:00',
  observeRestDays: false,
  timezone: TZ,
  // No notice: online cancellation stays open until the start (see the deadline tests).
  cancelNoticeMinutes: 0,
  ...overrides,
});

describe('nominalDueAt', () => {
  it('keeps the clock time for whole days when the clocks fall back (2026-10-25)', () => {
    // Sunday 10:00 +02:00 after the change; the day before is on +03:00: 25 hours earlier.
    const start = at('2026-10-25 10:00');
    const due = nominalDueAt(start, 1440, TZ);
    expect(iso(due)).toBe('2026-10-24T10:00:00+03:00');
    expect((start - due) / HOUR).toBe(25);
  });

  it('keeps the clock time for whole days when the clocks go forward (2027-03-26)', () => {
    const start = at('2027-03-26 10:00');
    const due = nominalDueAt(start, 1440, TZ);
    expect(iso(due)).toBe('2027-03-25T10:00:00+02:00');
    expect((start - due) / HOUR).toBe(23);
    expect(iso(nominalDueAt(at('2027-03-28 10:00'), 2880, TZ))).toBe('2027-03-26T10:00:00+03:00');
  });

  it('counts real minutes for other lead times, across the change too', () => {
    // 03:30 on the night of the jump is 2 real hours after 00:30 (01:30 + the skipped hour).
    expect(iso(nominalDueAt(at('2027-03-26 03:30'), 120, TZ))).toBe('2027-03-26T00:30:00+02:00');
    expect(iso(nominalDueAt(at('2026-10-25 09:00'), 90, TZ))).toBe('2026-10-25T07:30:00+02:00');
  });
});

describe('quiet hours', () => {
  it('spans midnight, in clinic time', () => {
    const span = quietSpanAt(at('2026-11-30 02:00'), policy());
    expect(span && iso(span.start)).toBe('2026-11-29T21:00:00+02:00');
    expect(span && iso(span.end)).toBe('2026-11-30T08:00:00+02:00');
    expect(quietSpanAt(at('2026-11-30 08:00'), policy())).toBeNull();
    expect(quietSpanAt(at('2026-11-30 20:59'), policy())).toBeNull();
  });

  it('may lie within a day, or be switched off with equal times', () => {
    const daytime = policy({ quietStart: '13:00', quietEnd: '15:00' });
    expect(quietSpanAt(at('2026-11-30 14:00'), daytime)).not.toBeNull();
    expect(quietSpanAt(at('2026-11-30 15:00'), daytime)).toBeNull();
    expect(quietSpanAt(at('2026-11-30 03:00'), policy({ quietEnd: '21:00' }))).toBeNull();
  });

  it('moves a reminder earlier, to the minute before they begin', () => {
    expect(iso(allowedDueAt(at('2026-11-30 07:00'), policy()))).toBe('2026-11-29T20:59:00+02:00');
    expect(iso(allowedDueAt(at('2026-11-30 08:00'), policy()))).toBe('2026-11-30T08:00:00+02:00');
  });
});

describe('Shabbat and Yom Tov', () => {
  const observing = policy({ observeRestDays: true });

  it('runs from candle lighting to havdalah, Jerusalem times', () => {
    const [shabbat] = restSpans('2026-10-24', '2026-10-24');
    expect(shabbat && iso(shabbat.start)).toBe('2026-10-23T17:18:00+03:00');
    expect(shabbat && iso(shabbat.end)).toBe('2026-10-24T18:34:00+03:00');
  });

  it('joins Rosh Hashana and the days after it into one span', () => {
    const spans = restSpans('2026-09-12', '2026-09-13');
    expect(spans).toHaveLength(1);
    expect(iso(spans[0]?.start ?? 0)).toBe('2026-09-11T18:10:00+03:00');
    expect(iso(spans[0]?.end ?? 0)).toBe('2026-09-13T19:24:00+03:00');
  });

  it('moves a reminder to before candle lighting, across the autumn clock change', () => {
    // Sunday 2026-10-25 10:00: the day-before reminder would go on Shabbat morning.
    const [dayBefore, twoHours] = planReminders(
      at('2026-10-25 10:00'),
      observing,
      at('2026-10-20 12:00'),
    );
    expect(dayBefore).toEqual({ leadMinutes: 1440, dueAt: at('2026-10-23 17:17') });
    expect(twoHours).toEqual({ leadMinutes: 120, dueAt: at('2026-10-25 08:00') });
  });

  it('moves a reminder out of Yom Kippur', () => {
    // Yom Kippur 5787: from candle lighting on 2026-09-20 to havdalah on 2026-09-21.
    const due = allowedDueAt(at('2026-09-21 12:00'), observing);
    expect(iso(due)).toBe('2026-09-20T17:57:00+03:00');
  });

  it('does not move anything when the clinic does not observe them', () => {
    expect(allowedDueAt(at('2026-10-24 10:00'), policy())).toBe(at('2026-10-24 10:00'));
  });

  it('moves out of Shabbat, then out of the quiet hours the move lands in', () => {
    // Sunday 07:00 is quiet: 20:59 on Saturday, after havdalah (18:34).
    expect(iso(allowedDueAt(at('2026-10-25 07:00'), observing))).toBe('2026-10-24T20:59:00+03:00');
    // A reminder at 21:30 on Friday is quiet; 20:59 is Shabbat; so before candle lighting.
    expect(iso(allowedDueAt(at('2026-10-23 21:30'), observing))).toBe('2026-10-23T17:17:00+03:00');
  });
});

describe('planReminders', () => {
  it('plans one per lead time, by due time, in clinic time', () => {
    const planned = planReminders(at('2026-12-02 10:00'), policy(), at('2026-11-25 12:00'));
    expect(planned.map((r) => [r.leadMinutes, iso(r.dueAt)])).toEqual([
      [1440, '2026-12-01T10:00:00+02:00'],
      [120, '2026-12-02T08:00:00+02:00'],
    ]);
  });

  it('gives no late reminder for a lead time already passed, nor one due within the hour', () => {
    const start = at('2026-12-02 16:00');
    expect(
      planReminders(start, policy(), at('2026-12-01 18:00')).map((r) => r.leadMinutes),
    ).toEqual([120]);
    expect(planReminders(start, policy(), at('2026-12-02 13:30'))).toEqual([]);
  });

  it('keeps the later of two reminders that moving brought together', () => {
    // 08:30 on Wednesday: the 12-hour one (20:30) and the 2-hour one (06:30 → 20:59) meet.
    const planned = planReminders(
      at('2026-12-02 08:30'),
      policy({ leadMinutes: [720, 120] }),
      at('2026-11-25 12:00'),
    );
    expect(planned).toEqual([{ leadMinutes: 120, dueAt: at('2026-12-01 20:59') }]);
  });

  it('sends the day-before reminder before online cancellation closes, not just after', () => {
    // Notice 24 hours: cancelling and moving online close at 10:00 the day before, the very time
    // of the day-before reminder; it goes at 09:45 instead. Other lead times keep their time.
    const start = at('2026-12-02 10:00');
    const planned = planReminders(
      start,
      policy({ cancelNoticeMinutes: 1440, leadMinutes: [1440, 1560, 120] }),
      at('2026-11-25 12:00'),
    );
    expect(planned.map((r) => [r.leadMinutes, iso(r.dueAt)])).toEqual([
      [1560, '2026-12-01T08:00:00+02:00'],
      [1440, '2026-12-01T09:45:00+02:00'],
      [120, '2026-12-02T08:00:00+02:00'],
    ]);
  });
});
