import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  integrationAppointmentsQuerySchema,
  MAX_APPOINTMENT_RANGE_DAYS,
  updateCaregiverBodySchema,
} from './clinic.js';

const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** Valid ranges of one day, in minutes, start < end. */
const range = fc
  .tuple(fc.integer({ min: 0, max: 23 * 60 + 58 }), fc.integer({ min: 1, max: 600 }))
  .map(([start, length]) => [start, Math.min(start + length, 23 * 60 + 59)] as const);

const mondayHours = (ranges: readonly (readonly [number, number])[]) =>
  updateCaregiverBodySchema.safeParse({
    marpe_rules: {
      weekly_hours: { monday: ranges.map(([s, e]) => ({ start: hhmm(s), end: hhmm(e) })) },
    },
  });

describe("a caregiver's working hours of one day", () => {
  it('are accepted exactly when no two overlap (touching is fine), naming overlapping ones', () => {
    fc.assert(
      fc.property(fc.array(range, { maxLength: 6 }), (ranges) => {
        const overlapping = ranges.flatMap(([s1, e1], i) =>
          ranges.some(([s2, e2], j) => i !== j && s1 < e2 && s2 < e1) ? [String(i)] : [],
        );
        const result = mondayHours(ranges);
        expect(result.success).toBe(overlapping.length === 0);
        for (const issue of result.error?.issues ?? []) {
          expect(overlapping).toContain(String(issue.path.at(-1)));
        }
      }),
    );
  });

  it('name the later of two overlapping ranges, in the order given', () => {
    const result = mondayHours([
      [12 * 60, 14 * 60],
      [8 * 60, 10 * 60],
      [9 * 60, 11 * 60],
    ]);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual([
      'marpe_rules.weekly_hours.monday.2',
    ]);
  });
});

describe('the appointments query', () => {
  const query = (from: string, to: string) =>
    integrationAppointmentsQuerySchema.safeParse({ from, to });

  it(`takes 1 to ${MAX_APPOINTMENT_RANGE_DAYS} days, both ends included`, () => {
    expect(query('2027-03-01', '2027-03-01').success).toBe(true);
    expect(query('2027-01-01', '2027-04-03').success).toBe(true);
    expect(query('2027-01-01', '2027-04-04').error?.issues[0]?.path).toEqual(['to']);
    expect(query('2027-03-02', '2027-03-01').error?.issues[0]?.path).toEqual(['to']);
  });

  it('names only the malformed date', () => {
    expect(query('2027-02-30', '2027-12-31').error?.issues.map((i) => i.path)).toEqual([['from']]);
  });
});
