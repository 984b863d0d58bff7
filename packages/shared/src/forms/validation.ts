/**
 * The six validation kinds of docs/forms.md#validations. Each validator answers whether a value
 * passes; `validateField` applies a field's list. Messages are not here: the web translates the
 * kind (`validationKinds`) through its i18n files.
 */
import { isEmail } from '../email.js';
import type { CalendarDate } from './dates.js';
import { ageOn, compareCalendarDates, normaliseDate, parseDayMonthYear } from './dates.js';
import type { FormField, ValidationKind } from './schema.js';

/** A field's entered value: text, a checkbox's boolean, a signature's data URL, or nothing. */
export type FieldValue = string | boolean | undefined;

/** What validations and conditions need besides the value. */
export interface FormContext {
  today: CalendarDate;
}

/** Empty: nothing, an empty (or blank) string, or an unticked checkbox. */
export function isEmptyValue(value: FieldValue): boolean {
  if (value === undefined) return true;
  if (typeof value === 'boolean') return !value;
  return value.trim() === '';
}

/** The date a dateFormat / birthDateFormat value stands for, after normalisation, or null. */
export function readDate(value: FieldValue, today: CalendarDate): CalendarDate | null {
  if (typeof value !== 'string') return null;
  return parseDayMonthYear(normaliseDate(value, today));
}

/** Oldest accepted age for birthDateFormat, in whole years. */
export const maxAgeYears = 120;

type Validator = (value: FieldValue, context: FormContext) => boolean;

export const validators: Record<ValidationKind, Validator> = {
  /** A value: non-blank text, a ticked checkbox, a signature. */
  required: (value) => !isEmptyValue(value),
  /** The standard email pattern (zod's, as `z.email()` checks it). */
  emailFormat: (value) => typeof value === 'string' && isEmail(value),
  /** Starts with 0 and has 9 to 10 digits once dashes are removed. */
  phoneFormat: (value) => typeof value === 'string' && /^0\d{8,9}$/.test(value.replace(/-/g, '')),
  /** 7 to 9 digits. */
  idFormat: (value) => typeof value === 'string' && /^\d{7,9}$/.test(value),
  /** A real `DD/MM/YYYY` date after normalisation (see `normaliseDate`). */
  dateFormat: (value, { today }) => readDate(value, today) !== null,
  /**
   * A real date strictly before today (age greater than 0 and not today: a baby born yesterday
   * passes) and at most 120 whole years ago (the day before the 121st birthday passes).
   */
  birthDateFormat: (value, { today }) => {
    const birth = readDate(value, today);
    if (!birth || compareCalendarDates(birth, today) >= 0) return false;
    return ageOn(birth, today) <= maxAgeYears;
  },
};

/**
 * The first of the field's validations the value fails, or null. An empty value fails only
 * `required`; a field that is not required accepts an empty value whatever its formats. Formats
 * are checked in the order the field lists them. Clean text first (`cleanText`).
 */
export function validateField(
  field: Pick<FormField, 'validations'>,
  value: FieldValue,
  context: FormContext,
): ValidationKind | null {
  if (isEmptyValue(value)) return field.validations.includes('required') ? 'required' : null;
  for (const kind of field.validations) {
    if (!validators[kind](value, context)) return kind;
  }
  return null;
}
