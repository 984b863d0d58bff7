import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseInputData } from './input-data.js';
import { inputDataSchema } from './schema.js';

/** What the schema answers, in parseInputData's terms. */
function schemaAnswer(value: unknown): unknown {
  const parsed = inputDataSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** Mostly records of text and booleans, some with a value or key of another kind. */
const nearlyInputData = fc.dictionary(
  fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'toString', '0')),
  fc.oneof(
    { weight: 8, arbitrary: fc.oneof(fc.string(), fc.boolean()) },
    { weight: 1, arbitrary: fc.anything() },
  ),
  { noNullPrototype: false },
);

const anything = fc.anything({
  withNullPrototype: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withBoxedValues: true,
  withTypedArray: true,
  withSparseArray: true,
  withBigInt: true,
});

describe('parseInputData', () => {
  it('answers as inputDataSchema does, for any value', () => {
    fc.assert(
      fc.property(fc.oneof(nearlyInputData, anything), (value) => {
        expect(parseInputData(value)).toStrictEqual(schemaAnswer(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('answers as inputDataSchema does, for what JSON.parse reads', () => {
    fc.assert(
      fc.property(fc.oneof(nearlyInputData, fc.jsonValue()), (value) => {
        const read: unknown = JSON.parse(JSON.stringify(value) ?? 'null');
        expect(parseInputData(read)).toStrictEqual(schemaAnswer(read));
      }),
    );
  });

  it('answers as inputDataSchema does, for keys that are symbols or hidden, and odd objects', () => {
    const withSymbol = { a: 'x', [Symbol('s')]: 'y' };
    const hidden = Object.defineProperty({ a: 'x' }, 'b', { value: 1, enumerable: false });
    const fromJson: unknown = JSON.parse('{"__proto__": 1, "a": true}');
    const odd = [Object.create(null), Object.setPrototypeOf([], null), new Date(0), new Map()];
    for (const value of [withSymbol, hidden, fromJson, ...odd]) {
      expect(parseInputData(value)).toStrictEqual(schemaAnswer(value));
    }
    expect(parseInputData(hidden)).toStrictEqual({ a: 'x' });
    expect(parseInputData(fromJson)).toStrictEqual({ a: true });
  });

  it('keeps text and booleans, and refuses anything else', () => {
    expect(parseInputData({ name: 'דנה', agree: true, empty: '' })).toStrictEqual({
      name: 'דנה',
      agree: true,
      empty: '',
    });
    for (const value of [null, 'x', 1, [], { age: 3 }, { a: null }, { a: ['x'] }]) {
      expect(parseInputData(value), JSON.stringify(value)).toBeNull();
    }
  });
});
