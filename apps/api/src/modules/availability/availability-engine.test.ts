// Over 400 lines: the engine's cases over one schedule fixture; split by rule when a rule grows its
// own.
import { describe, expect, it } from 'vitest';
import type { MarpeRules } from '@marpe/shared';
import {
  availableDates,
  availableSlots,
  bookingWindow,
  firstAvailableSlot,
  type AvailabilityInput,
  type Interval,
} from './availability-engine.js';
import { formatZonedIso, zonedToEpoch } from '../../platform/zoned-time.js';

const J = 'Asia/Jerusalem';
const MINUTE = 60_000;

const noHours: MarpeRules['weekly_hours'] = {
  sunday: [],
  monday: [],
  tuesday: [],
  wednesday: [],
  thursday: [],
  friday: [],
  saturday: [],
};

function rules(overrides: Partial<MarpeRules> = {}): MarpeRules {
  return {
    slot_step_minutes: 30,
    min_notice_minutes: 0,
    booking_horizon_days: 60,
    weekly_hours: noHours,
    breaks: [],
    exceptions: [],
    ...overrides,
  };
}

const at = (local: string, zone = J) => zonedToEpoch(local, zone);

function input(overrides: Partial<AvailabilityInput> & { rules: MarpeRules }): AvailabilityInput {
  return { timezone: J, busy: [], durationMinutes: 30, now: at('2027-01-01 00:00'), ...overrides };
}

/** Slots of one local date, as ISO starts. */
function dayStarts(engineInput: AvailabilityInput, date: string): string[] {
  const slots = availableSlots(engineInput, {
    from: at(`${date} 00:00`, engineInput.timezone),
    to: at(`${date} 23:59`, engineInput.timezone),
  });
  for (const slot of slots) {
    expect(slot.end - slot.start).toBe(engineInput.durationMinutes * MINUTE);
  }
  return slots.map((slot) => formatZonedIso(slot.start, engineInput.timezone));
}

const busy = (from: string, to: string): Interval => ({ start: at(from), end: at(to) });

// 2027-01-10 is a Sunday, in winter (+02:00).
const SUNDAY = '2027-01-10';
const morning = rules({ weekly_hours: { ...noHours, sunday: [{ start: '08:00', end: '12:00' }] } });

describe('an ordinary day', () => {
  it('08:00–12:00, step 30, 30 minutes → 8 slots', () => {
    expect(dayStarts(input({ rules: morning }), SUNDAY)).toEqual([
      '2027-01-10T08:00:00+02:00',
      '2027-01-10T08:30:00+02:00',
      '2027-01-10T09:00:00+02:00',
      '2027-01-10T09:30:00+02:00',
      '2027-01-10T10:00:00+02:00',
      '2027-01-10T10:30:00+02:00',
      '2027-01-10T11:00:00+02:00',
      '2027-01-10T11:30:00+02:00',
    ]);
  });

  it('includes slots starting exactly at both ends of the range', () => {
    const slots = availableSlots(input({ rules: morning }), {
      from: at(`${SUNDAY} 09:00`),
      to: at(`${SUNDAY} 10:00`),
    });
    expect(slots.map((s) => formatZonedIso(s.start, J))).toEqual([
      '2027-01-10T09:00:00+02:00',
      '2027-01-10T09:30:00+02:00',
      '2027-01-10T10:00:00+02:00',
    ]);
    expect(slots[0]).toEqual({ start: at(`${SUNDAY} 09:00`), end: at(`${SUNDAY} 09:30`) });
  });

  it('gives nothing for an empty range or a range turned around', () => {
    const engineInput = input({ rules: morning });
    expect(
      availableSlots(engineInput, { from: at(`${SUNDAY} 12:00`), to: at(`${SUNDAY} 23:00`) }),
    ).toEqual([]);
    expect(
      availableSlots(engineInput, { from: at(`${SUNDAY} 11:00`), to: at(`${SUNDAY} 09:00`) }),
    ).toEqual([]);
  });

  it('joins several intervals of a day and keeps each one’s grid', () => {
    const split = rules({
      weekly_hours: {
        ...noHours,
        sunday: [
          { start: '14:10', end: '15:00' },
          { start: '08:00', end: '09:00' },
        ],
      },
    });
    expect(dayStarts(input({ rules: split }), SUNDAY)).toEqual([
      '2027-01-10T08:00:00+02:00',
      '2027-01-10T08:30:00+02:00',
      '2027-01-10T14:10:00+02:00',
    ]);
  });

  it('treats overlapping or touching intervals as one working stretch', () => {
    const joined = rules({
      weekly_hours: {
        ...noHours,
        sunday: [
          { start: '08:00', end: '09:00' },
          { start: '08:30', end: '09:15' },
          { start: '09:15', end: '10:00' },
        ],
      },
    });
    expect(dayStarts(input({ rules: joined, durationMinutes: 60 }), SUNDAY)).toEqual([
      '2027-01-10T08:00:00+02:00',
      '2027-01-10T08:30:00+02:00',
      '2027-01-10T09:00:00+02:00',
    ]);
  });

  it('never throws on an empty schedule', () => {
    const engineInput = input({ rules: rules() });
    expect(dayStarts(engineInput, SUNDAY)).toEqual([]);
    expect(availableDates(engineInput, { fromDate: '2027-01-01', toDate: '2027-02-28' })).toEqual(
      [],
    );
    expect(firstAvailableSlot(engineInput)).toBeNull();
  });
});

describe('breaks', () => {
  it('cut that week day’s breaks and every-day breaks out of the hours', () => {
    const withBreaks = rules({
      weekly_hours: morning.weekly_hours,
      breaks: [
        { day: 'sunday', start: '10:00', end: '10:30' },
        { day: null, start: '11:30', end: '12:00' },
        { day: 'monday', start: '08:00', end: '12:00' },
      ],
    });
    expect(dayStarts(input({ rules: withBreaks }), SUNDAY)).toEqual([
      '2027-01-10T08:00:00+02:00',
      '2027-01-10T08:30:00+02:00',
      '2027-01-10T09:00:00+02:00',
      '2027-01-10T09:30:00+02:00',
      '2027-01-10T10:30:00+02:00',
      '2027-01-10T11:00:00+02:00',
    ]);
  });

  it('restart the grid after a break and keep long visits out of it', () => {
    const withBreak = rules({
      weekly_hours: morning.weekly_hours,
      breaks: [{ day: null, start: '09:10', end: '10:05' }],
    });
    expect(dayStarts(input({ rules: withBreak, durationMinutes: 45 }), SUNDAY)).toEqual([
      '2027-01-10T08:00:00+02:00',
      '2027-01-10T10:05:00+02:00',
      '2027-01-10T10:35:00+02:00',
      '2027-01-10T11:05:00+02:00',
    ]);
  });

  it('apply on exception dates too', () => {
    const withException = rules({
      weekly_hours: morning.weekly_hours,
      breaks: [{ day: 'sunday', start: '09:00', end: '09:30' }],
      exceptions: [{ date: SUNDAY, hours: [{ start: '08:30', end: '10:00' }] }],
    });
    expect(dayStarts(input({ rules: withException }), SUNDAY)).toEqual([
      '2027-01-10T08:30:00+02:00',
      '2027-01-10T09:30:00+02:00',
    ]);
  });
});

describe('exceptions', () => {
  it('a day off gives no slots and no date', () => {
    const dayOff = rules({
      weekly_hours: morning.weekly_hours,
      exceptions: [{ date: SUNDAY, hours: [] }],
    });
    const engineInput = input({ rules: dayOff });
    expect(dayStarts(engineInput, SUNDAY)).toEqual([]);
    expect(availableDates(engineInput, { fromDate: '2027-01-03', toDate: '2027-01-17' })).toEqual([
      '2027-01-03',
      '2027-01-17',
    ]);
  });

  it('changed hours replace the week day’s hours, even on a closed week day', () => {
    const changed = rules({
      weekly_hours: morning.weekly_hours,
      exceptions: [
        { date: SUNDAY, hours: [{ start: '13:00', end: '14:00' }] },
        { date: '2027-01-16', hours: [{ start: '10:00', end: '11:00' }] }, // a Saturday
      ],
    });
    const engineInput = input({ rules: changed });
    expect(dayStarts(engineInput, SUNDAY)).toEqual([
      '2027-01-10T13:00:00+02:00',
      '2027-01-10T13:30:00+02:00',
    ]);
    expect(dayStarts(engineInput, '2027-01-16')).toEqual([
      '2027-01-16T10:00:00+02:00',
      '2027-01-16T10:30:00+02:00',
    ]);
    expect(dayStarts(engineInput, '2027-01-17')).toHaveLength(8);
  });
});

describe('minimum notice and horizon', () => {
  it('no slot starts before now + minimum notice; the grid stays on the interval’s steps', () => {
    const notice = rules({ ...morning, min_notice_minutes: 60 });
    const engineInput = input({ rules: notice, now: at(`${SUNDAY} 08:10`) });
    expect(dayStarts(engineInput, SUNDAY)).toEqual([
      '2027-01-10T09:30:00+02:00',
      '2027-01-10T10:00:00+02:00',
      '2027-01-10T10:30:00+02:00',
      '2027-01-10T11:00:00+02:00',
      '2027-01-10T11:30:00+02:00',
    ]);
    // Exactly now + notice is allowed.
    expect(dayStarts({ ...engineInput, now: at(`${SUNDAY} 08:30`) }, SUNDAY)[0]).toBe(
      '2027-01-10T09:30:00+02:00',
    );
    expect(firstAvailableSlot(engineInput)?.start).toBe(at(`${SUNDAY} 09:30`));
  });

  it('a notice longer than a day pushes the first date', () => {
    const notice = rules({ ...morning, min_notice_minutes: 8 * 24 * 60 });
    const engineInput = input({ rules: notice, now: at(`${SUNDAY} 07:00`) });
    expect(availableDates(engineInput, { fromDate: SUNDAY, toDate: '2027-01-31' })).toEqual([
      '2027-01-24',
      '2027-01-31',
    ]);
  });

  it('the horizon counts calendar days, today included', () => {
    const everyDay = Object.fromEntries(
      Object.keys(noHours).map((day) => [day, [{ start: '08:00', end: '09:00' }]]),
    ) as MarpeRules['weekly_hours'];
    const today = rules({ weekly_hours: everyDay, booking_horizon_days: 1 });
    const now = at(`${SUNDAY} 08:15`);
    expect(bookingWindow({ timezone: J, rules: today, now })).toEqual({
      firstDate: SUNDAY,
      lastDate: SUNDAY,
      endsAt: at('2027-01-11 00:00'),
    });
    const week = { ...today, booking_horizon_days: 3 };
    const engineInput = input({ rules: week, now });
    expect(bookingWindow(engineInput).lastDate).toBe('2027-01-12');
    expect(availableDates(engineInput, { fromDate: '2027-01-01', toDate: '2027-01-31' })).toEqual([
      '2027-01-10',
      '2027-01-11',
      '2027-01-12',
    ]);
    const slots = availableSlots(engineInput, { from: 0, to: at('2027-12-31 00:00') });
    expect(slots.map((s) => formatZonedIso(s.start, J))).toEqual([
      '2027-01-10T08:30:00+02:00',
      '2027-01-11T08:00:00+02:00',
      '2027-01-11T08:30:00+02:00',
      '2027-01-12T08:00:00+02:00',
      '2027-01-12T08:30:00+02:00',
    ]);
    expect(dayStarts(engineInput, '2027-01-13')).toEqual([]);
    // Past dates give nothing either.
    expect(dayStarts(engineInput, '2027-01-09')).toEqual([]);
  });

  it('the horizon ends at the start of the day after the last bookable date, DST or not', () => {
    const window = bookingWindow({
      timezone: J,
      rules: rules({ booking_horizon_days: 2 }),
      now: at('2027-03-25 12:00'),
    });
    expect(window.lastDate).toBe('2027-03-26');
    expect(formatZonedIso(window.endsAt, J)).toBe('2027-03-27T00:00:00+03:00');
  });
});

describe('booked appointments', () => {
  const engineInput = (booked: Interval[], durationMinutes = 30) =>
    input({ rules: morning, busy: booked, durationMinutes });

  it('a touching appointment leaves the neighbouring slots free; an overlapping one takes them', () => {
    expect(dayStarts(engineInput([busy(`${SUNDAY} 09:00`, `${SUNDAY} 10:00`)]), SUNDAY)).toEqual([
      '2027-01-10T08:00:00+02:00',
      '2027-01-10T08:30:00+02:00',
      '2027-01-10T10:00:00+02:00',
      '2027-01-10T10:30:00+02:00',
      '2027-01-10T11:00:00+02:00',
      '2027-01-10T11:30:00+02:00',
    ]);
    // 08:45–09:01 overlaps the 08:30 and the 09:00 slots by a minute.
    expect(
      dayStarts(engineInput([busy(`${SUNDAY} 08:45`, `${SUNDAY} 09:01`)]), SUNDAY).slice(0, 3),
    ).toEqual([
      '2027-01-10T08:00:00+02:00',
      '2027-01-10T09:30:00+02:00',
      '2027-01-10T10:00:00+02:00',
    ]);
  });

  it('a long visit is blocked by any appointment inside it', () => {
    expect(
      dayStarts(engineInput([busy(`${SUNDAY} 10:00`, `${SUNDAY} 10:10`)], 90), SUNDAY),
    ).toEqual([
      '2027-01-10T08:00:00+02:00',
      '2027-01-10T08:30:00+02:00',
      '2027-01-10T10:30:00+02:00',
    ]);
  });

  it('copes with overlapping, unsorted, empty and out-of-window appointments', () => {
    const booked = [
      busy(`${SUNDAY} 11:00`, `${SUNDAY} 11:20`),
      busy('2026-05-01 09:00', '2026-05-01 10:00'),
      busy(`${SUNDAY} 08:00`, `${SUNDAY} 08:40`),
      busy(`${SUNDAY} 08:20`, `${SUNDAY} 08:50`),
      busy(`${SUNDAY} 09:40`, `${SUNDAY} 09:40`),
      busy('2028-05-01 09:00', '2028-05-01 10:00'),
    ];
    expect(dayStarts(engineInput(booked), SUNDAY)).toEqual([
      '2027-01-10T09:00:00+02:00',
      '2027-01-10T09:30:00+02:00',
      '2027-01-10T10:00:00+02:00',
      '2027-01-10T10:30:00+02:00',
      '2027-01-10T11:30:00+02:00',
    ]);
  });

  it('a fully booked day is not an available date and the first slot moves on', () => {
    const booked = [busy(`${SUNDAY} 07:00`, `${SUNDAY} 13:00`)];
    const engineInputBooked = input({ rules: morning, busy: booked, now: at('2027-01-09 10:00') });
    expect(
      availableDates(engineInputBooked, { fromDate: '2027-01-09', toDate: '2027-01-24' }),
    ).toEqual(['2027-01-17', '2027-01-24']);
    expect(formatZonedIso(firstAvailableSlot(engineInputBooked)?.start ?? 0, J)).toBe(
      '2027-01-17T08:00:00+02:00',
    );
  });
});

describe('durations and steps', () => {
  it('a visit longer than the step starts every step and ends by the interval’s end', () => {
    const quarter = rules({ ...morning, slot_step_minutes: 15 });
    const starts = dayStarts(input({ rules: quarter, durationMinutes: 60 }), SUNDAY);
    expect(starts).toHaveLength(13);
    expect(starts[0]).toBe('2027-01-10T08:00:00+02:00');
    expect(starts.at(-1)).toBe('2027-01-10T11:00:00+02:00');
  });

  it('a slot never runs past the end of its interval', () => {
    const short = rules({
      weekly_hours: { ...noHours, sunday: [{ start: '08:00', end: '09:50' }] },
    });
    expect(dayStarts(input({ rules: short }), SUNDAY)).toEqual([
      '2027-01-10T08:00:00+02:00',
      '2027-01-10T08:30:00+02:00',
      '2027-01-10T09:00:00+02:00',
    ]);
    expect(dayStarts(input({ rules: short, durationMinutes: 120 }), SUNDAY)).toEqual([]);
  });

  it('nonsense steps or durations give nothing instead of looping', () => {
    expect(dayStarts(input({ rules: morning, durationMinutes: 0 }), SUNDAY)).toEqual([]);
    expect(dayStarts(input({ rules: { ...morning, slot_step_minutes: 0 } }), SUNDAY)).toEqual([]);
  });
});

describe('daylight saving changes in Asia/Jerusalem', () => {
  const ordinary = rules({
    weekly_hours: {
      ...noHours,
      sunday: [{ start: '08:00', end: '13:00' }],
      friday: [{ start: '08:00', end: '13:00' }],
    },
  });
  const tenSlots = (date: string, offset: string) =>
    ['08', '09', '10', '11', '12'].flatMap((hour) => [
      `${date}T${hour}:00:00${offset}`,
      `${date}T${hour}:30:00${offset}`,
    ]);

  it.each([
    ['2027-03-26', '+03:00', '2027-03-20 09:00'],
    ['2026-10-25', '+02:00', '2026-10-20 09:00'],
    ['2027-10-31', '+02:00', '2027-10-24 09:00'],
  ])(
    'an ordinary 08:00–13:00 day on %s has its slots on the hour and half hour (%s)',
    (date, offset, now) => {
      const engineInput = input({ rules: ordinary, now: at(now) });
      expect(dayStarts(engineInput, date)).toEqual(tenSlots(date, offset));
    },
  );

  it('the day before each change keeps the old offset', () => {
    expect(
      dayStarts(input({ rules: ordinary, now: at('2027-03-18 09:00') }), '2027-03-19'),
    ).toEqual(tenSlots('2027-03-19', '+02:00'));
    expect(
      dayStarts(input({ rules: ordinary, now: at('2026-10-20 09:00') }), '2026-10-23'),
    ).toEqual(tenSlots('2026-10-23', '+03:00'));
  });

  const night = (day: 'friday' | 'sunday', step = 30) =>
    rules({
      slot_step_minutes: step,
      weekly_hours: { ...noHours, [day]: [{ start: '00:00', end: '04:00' }] },
    });

  function checkRealSteps(slots: Interval[], step: number) {
    for (let i = 1; i < slots.length; i++) {
      expect((slots[i] as Interval).start - (slots[i - 1] as Interval).start).toBe(step * MINUTE);
    }
    expect(new Set(slots.map((s) => s.start)).size).toBe(slots.length);
  }

  it('00:00–04:00 on spring-forward night is 3 real hours: 6 slots, 30 real minutes apart', () => {
    const engineInput = input({ rules: night('friday'), now: at('2027-03-20 09:00') });
    const starts = dayStarts(engineInput, '2027-03-26');
    expect(starts).toEqual([
      '2027-03-26T00:00:00+02:00',
      '2027-03-26T00:30:00+02:00',
      '2027-03-26T01:00:00+02:00',
      '2027-03-26T01:30:00+02:00',
      '2027-03-26T03:00:00+03:00',
      '2027-03-26T03:30:00+03:00',
    ]);
    const slots = availableSlots(engineInput, {
      from: at('2027-03-26 00:00'),
      to: at('2027-03-26 23:59'),
    });
    checkRealSteps(slots, 30);
    expect((slots.at(-1) as Interval).end).toBe(at('2027-03-26 04:00'));
  });

  it('with a 45-minute step the slot after the gap is 45 real minutes on', () => {
    const engineInput = input({ rules: night('friday', 45), now: at('2027-03-20 09:00') });
    expect(dayStarts(engineInput, '2027-03-26')).toEqual([
      '2027-03-26T00:00:00+02:00',
      '2027-03-26T00:45:00+02:00',
      '2027-03-26T01:30:00+02:00',
      '2027-03-26T03:15:00+03:00',
    ]);
  });

  it.each([
    ['2026-10-25', '2026-10-20 09:00'],
    ['2027-10-31', '2027-10-24 09:00'],
  ])('00:00–04:00 on fall-back night %s is 5 real hours: 10 slots, none repeated', (date, now) => {
    const engineInput = input({ rules: night('sunday'), now: at(now) });
    expect(dayStarts(engineInput, date)).toEqual([
      `${date}T00:00:00+03:00`,
      `${date}T00:30:00+03:00`,
      `${date}T01:00:00+03:00`,
      `${date}T01:30:00+03:00`,
      `${date}T01:00:00+02:00`,
      `${date}T01:30:00+02:00`,
      `${date}T02:00:00+02:00`,
      `${date}T02:30:00+02:00`,
      `${date}T03:00:00+02:00`,
      `${date}T03:30:00+02:00`,
    ]);
    checkRealSteps(
      availableSlots(engineInput, { from: at(`${date} 00:00`), to: at(`${date} 23:59`) }),
      30,
    );
  });

  it('an interval starting inside the skipped hour starts when the clocks jump', () => {
    const gap = rules({ weekly_hours: { ...noHours, friday: [{ start: '02:30', end: '04:00' }] } });
    expect(dayStarts(input({ rules: gap, now: at('2027-03-20 09:00') }), '2027-03-26')).toEqual([
      '2027-03-26T03:00:00+03:00',
      '2027-03-26T03:30:00+03:00',
    ]);
    const inside = rules({
      weekly_hours: {
        ...noHours,
        friday: [
          { start: '02:00', end: '02:30' },
          { start: '03:00', end: '03:30' },
        ],
      },
    });
    // 02:00–02:30 never happens; 03:00–03:30 is not counted twice.
    expect(dayStarts(input({ rules: inside, now: at('2027-03-20 09:00') }), '2027-03-26')).toEqual([
      '2027-03-26T03:00:00+03:00',
    ]);
  });

  it('an appointment booked in the repeated hour blocks only its own pass', () => {
    const engineInput = input({
      rules: night('sunday'),
      now: at('2026-10-20 09:00'),
      busy: [
        { start: Date.parse('2026-10-24T23:00:00Z'), end: Date.parse('2026-10-24T23:30:00Z') },
      ],
    });
    const starts = dayStarts(engineInput, '2026-10-25');
    expect(starts).toContain('2026-10-25T01:00:00+03:00');
    expect(starts).not.toContain('2026-10-25T01:00:00+02:00');
    expect(starts).toHaveLength(9);
  });

  it('available dates across the spring-forward and fall-back weeks', () => {
    const clinicWeek = rules({
      weekly_hours: {
        sunday: [{ start: '08:00', end: '19:00' }],
        monday: [{ start: '08:00', end: '19:00' }],
        tuesday: [{ start: '08:00', end: '19:00' }],
        wednesday: [{ start: '08:00', end: '19:00' }],
        thursday: [{ start: '08:00', end: '19:00' }],
        friday: [{ start: '08:00', end: '13:00' }],
        saturday: [],
      },
      exceptions: [{ date: '2027-03-24', hours: [] }],
    });
    expect(
      availableDates(input({ rules: clinicWeek, now: at('2027-03-20 22:00') }), {
        fromDate: '2027-03-20',
        toDate: '2027-03-28',
      }),
    ).toEqual(['2027-03-21', '2027-03-22', '2027-03-23', '2027-03-25', '2027-03-26', '2027-03-28']);
    expect(
      availableDates(input({ rules: clinicWeek, now: at('2026-10-22 18:15') }), {
        fromDate: '2026-10-22',
        toDate: '2026-10-31',
      }),
    ).toEqual([
      '2026-10-22',
      '2026-10-23',
      '2026-10-25',
      '2026-10-26',
      '2026-10-27',
      '2026-10-28',
      '2026-10-29',
      '2026-10-30',
    ]);
  });

  it('the first available slot after a Thursday evening is Friday 08:00 at the new offset', () => {
    const friday = rules({
      weekly_hours: { ...noHours, friday: [{ start: '08:00', end: '13:00' }] },
    });
    const slot = firstAvailableSlot(input({ rules: friday, now: at('2027-03-25 20:00') }));
    expect(slot).toEqual({
      start: Date.parse('2027-03-26T05:00:00Z'),
      end: Date.parse('2027-03-26T05:30:00Z'),
    });
  });
});

describe('other zones', () => {
  it('Asia/Kolkata (+05:30) and UTC give the same wall-clock slots at their own instants', () => {
    for (const [zone, offset] of [
      ['Asia/Kolkata', '+05:30'],
      ['UTC', '+00:00'],
      ['America/New_York', '-05:00'],
    ] as const) {
      const engineInput = input({
        rules: morning,
        timezone: zone,
        now: at('2027-01-01 00:00', zone),
      });
      const starts = dayStarts(engineInput, SUNDAY);
      expect(starts).toHaveLength(8);
      expect(starts[0]).toBe(`2027-01-10T08:00:00${offset}`);
    }
  });

  it('Australia/Sydney on its spring-forward night (2026-10-04, 02:00 → 03:00)', () => {
    const engineInput = input({
      rules: rules({ weekly_hours: { ...noHours, sunday: [{ start: '01:00', end: '04:00' }] } }),
      timezone: 'Australia/Sydney',
      now: at('2026-10-01 09:00', 'Australia/Sydney'),
      durationMinutes: 60,
    });
    expect(dayStarts(engineInput, '2026-10-04')).toEqual([
      '2026-10-04T01:00:00+10:00',
      '2026-10-04T01:30:00+10:00',
      '2026-10-04T03:00:00+11:00',
    ]);
  });
});
