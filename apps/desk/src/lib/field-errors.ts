import type { TFunction } from 'i18next';
import type { z } from 'zod';
import { ApiError } from './api';

/** A form's errors by field, dotted as the API names them (`address.city`, `weekly_hours.sunday.0`). */
export type FieldErrors = Record<string, string>;

interface IssueLike {
  path: string | readonly PropertyKey[];
  message: string;
  code?: string;
  minimum?: unknown;
  maximum?: unknown;
  origin?: string;
}

/**
 * The API's and the shared schemas' messages are English (the contract's); the desk shows each in
 * the reader's language: the messages the schemas write themselves by their words, the rest by
 * zod's issue code.
 */
const knownMessages: [RegExp, string][] = [
  [/^(Must not be empty|Required field)$/, 'validation.required'],
  [/^Expected a phone number/, 'validation.phone'],
  [/^(Invalid phone number|Expected an Israeli mobile)/, 'validation.mobile'],
  [/^Expected an email/, 'validation.email'],
  [/^Expected an http\(s\) URL/, 'validation.url'],
  [/^Overlaps /, 'validation.overlaps'],
  [/^start must be before end$/, 'validation.endBeforeStart'],
  [/^This date is listed twice$/, 'validation.dateTwice'],
  [/^An id is listed twice$/, 'validation.listedTwice'],
  [/^Invalid ID number|^Expected a valid Israeli ID/, 'validation.idNumber'],
  [/^Expected \d+ digits$/, 'validation.code'],
];

export function translateIssue(t: TFunction, issue: IssueLike): string {
  for (const [pattern, key] of knownMessages) {
    if (pattern.test(issue.message)) return t(key, { ns: 'common' });
  }
  const isText = issue.origin === 'string';
  if (issue.code === 'too_small' && typeof issue.minimum === 'number') {
    return isText && issue.minimum === 1
      ? t('validation.required', { ns: 'common' })
      : t(isText ? 'validation.tooShort' : 'validation.min', {
          ns: 'common',
          value: issue.minimum,
        });
  }
  if (issue.code === 'too_big' && typeof issue.maximum === 'number') {
    return t(isText ? 'validation.tooLong' : 'validation.max', {
      ns: 'common',
      value: issue.maximum,
    });
  }
  const atMost = /At most (\d+)/.exec(issue.message);
  if (atMost) return t('validation.tooLong', { ns: 'common', value: Number(atMost[1]) });
  return t('validation.invalid', { ns: 'common' });
}

const dotted = (path: IssueLike['path']): string =>
  typeof path === 'string' ? path : path.map(String).join('.');

/** The first issue of each field, translated. */
export function fieldErrorsOf(t: TFunction, issues: readonly IssueLike[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const path = dotted(issue.path);
    errors[path] ??= translateIssue(t, issue);
  }
  return errors;
}

/** Checks a value with a shared schema before it is sent: null when valid, else the field errors. */
export function validate<S extends z.ZodType>(
  t: TFunction,
  schema: S,
  value: unknown,
): { data: z.output<S>; errors: null } | { data: null; errors: FieldErrors } {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { data: parsed.data, errors: null };
  return { data: null, errors: fieldErrorsOf(t, parsed.error.issues as IssueLike[]) };
}

/** A failed call's field errors (400 validation_failed), or null for any other failure. */
export function serverFieldErrors(t: TFunction, error: unknown): FieldErrors | null {
  if (!(error instanceof ApiError) || error.issues.length === 0) return null;
  return fieldErrorsOf(t, error.issues);
}

/** What to tell the reader about a failed call, in their language. */
export function errorText(t: TFunction, error: unknown): string {
  if (error instanceof ApiError) {
    const key = `errors.${error.code}`;
    const text = t(key, { ns: 'common', defaultValue: '' });
    return text || t('errors.unknown', { ns: 'common', status: error.status });
  }
  return t('errors.network', { ns: 'common' });
}
