import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isEmail } from './email.js';

const emailSchema = z.email();

describe('isEmail', () => {
  it('answers as z.email() does', () => {
    const part = fc.string({ unit: fc.constantFrom(..."aZ09._+-'@ א".split('')), maxLength: 12 });
    fc.assert(
      fc.property(
        fc.oneof(
          part,
          fc.tuple(part, part, part).map(([a, b, c]) => `${a}@${b}.${c}`),
          fc.string(),
        ),
        (value) => {
          expect(isEmail(value)).toBe(emailSchema.safeParse(value).success);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
