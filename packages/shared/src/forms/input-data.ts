import type { InputData } from './schema.js';

/**
 * A plain object as zod's record schemas take it: not an array, a Date, a Map or a class's
 * instance, but an object from `{}`, `JSON.parse` or `Object.create(null)`.
 */
function isPlainObject(value: unknown): value is Record<PropertyKey, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const constructor: unknown = (value as { constructor?: unknown }).constructor;
  if (typeof constructor !== 'function') return true;
  const prototype: unknown = constructor.prototype;
  return (
    typeof prototype === 'object' &&
    prototype !== null &&
    !Array.isArray(prototype) &&
    Object.hasOwn(prototype, 'isPrototypeOf')
  );
}

/**
 * `value` as inputData when it has that shape, else null: what `inputDataSchema.safeParse` answers
 * (a copy of the own enumerable string keys, each holding text or a boolean; `__proto__` is
 * dropped), without zod, for the browser. The tests hold the two to the same answers.
 */
export function parseInputData(value: unknown): InputData | null {
  if (!isPlainObject(value)) return null;
  const inputData: InputData = {};
  for (const key of Reflect.ownKeys(value)) {
    if (key === '__proto__' || !Object.prototype.propertyIsEnumerable.call(value, key)) continue;
    const entry = value[key];
    if (typeof key !== 'string' || (typeof entry !== 'string' && typeof entry !== 'boolean')) {
      return null;
    }
    inputData[key] = entry;
  }
  return inputData;
}
