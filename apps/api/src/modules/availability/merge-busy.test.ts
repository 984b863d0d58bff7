import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeBusy } from './availability-repository.js';

type Row = { caregiverId: number; startAt: Date; endAt: Date };

/** A source as its query answers it: ordered by caregiver, then start. */
const sourceArbitrary = fc
  .array(
    fc.record({
      caregiverId: fc.integer({ min: 1, max: 4 }),
      start: fc.integer({ min: 0, max: 10_000 }),
      length: fc.integer({ min: 1, max: 500 }),
    }),
    { maxLength: 40 },
  )
  .map((rows) =>
    rows
      .map((r) => ({
        caregiverId: r.caregiverId,
        startAt: new Date(r.start),
        endAt: new Date(r.start + r.length),
      }))
      .sort((a, b) => a.caregiverId - b.caregiverId || a.startAt.getTime() - b.startAt.getTime()),
  );

describe('mergeBusy', () => {
  it('gives each caregiver every interval of every source, sorted by start', () => {
    fc.assert(
      fc.property(fc.array(sourceArbitrary, { minLength: 0, maxLength: 3 }), (sources) => {
        const merged = mergeBusy(sources);
        const all: Row[] = sources.flat();
        for (const caregiverId of new Set(all.map((r) => r.caregiverId))) {
          const list = merged.get(caregiverId) ?? [];
          const expected = all
            .filter((r) => r.caregiverId === caregiverId)
            .map((r) => ({ start: r.startAt.getTime(), end: r.endAt.getTime() }));
          expect([...list].sort((a, b) => a.start - b.start || a.end - b.end)).toEqual(
            expected.sort((a, b) => a.start - b.start || a.end - b.end),
          );
          for (let i = 1; i < list.length; i++) {
            expect((list[i] as { start: number }).start).toBeGreaterThanOrEqual(
              (list[i - 1] as { start: number }).start,
            );
          }
        }
        expect([...merged.keys()].sort()).toEqual(
          [...new Set(all.map((r) => r.caregiverId))].sort(),
        );
      }),
    );
  });
});
