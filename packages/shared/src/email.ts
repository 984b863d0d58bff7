import { regexes } from 'zod/v4/core';

/**
 * The standard email pattern: zod's, the one `z.email()` checks, taken without zod's runtime (a
 * bundler keeps only the regular expression), so that the browser checks exactly what the API does.
 */
export function isEmail(value: string): boolean {
  return regexes.email.test(value);
}
