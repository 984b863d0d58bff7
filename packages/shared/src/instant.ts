import { z } from 'zod';

/**
 * The instants Marpe takes: from 2000 up to (not including) 2100. Nothing a clinic books or
 * blocks lies outside, and PostgreSQL refuses instants whose year passes 9999 after the offset
 * (`9999-12-31T23:00:00-05:00`) with an error that would otherwise reach the caller as a 500.
 */
export const EARLIEST_INSTANT = '2000-01-01T00:00:00Z';
export const LATEST_INSTANT = '2100-01-01T00:00:00Z';
const earliest = Date.parse(EARLIEST_INSTANT);
const latest = Date.parse(LATEST_INSTANT);

/** ISO 8601 with an offset or Z, inside the range above; `example` goes into the message. */
export function instantSchema(example: string) {
  return z.iso
    .datetime({
      offset: true,
      error: `Expected an ISO 8601 date-time with an offset, e.g. ${example}`,
    })
    .refine(
      (value) => {
        const at = Date.parse(value);
        return at >= earliest && at < latest;
      },
      { error: 'Expected a date-time from the year 2000 up to 2099' },
    );
}
