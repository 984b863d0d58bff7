/**
 * The field-type registry (STYLE: each type brings its own rules; after cal.com's form builder).
 * Display types (html, title, paragraph) hold no value and are never validated.
 */
import type { FieldType, FormField } from './schema.js';
import { isSignatureDataUrl } from './signature.js';
import { cleanText } from './text.js';
import type { FieldValue } from './validation.js';

/** Errors of the value's shape, before the validation kinds (`validateSubmission`). */
export type FieldShapeError = 'invalid_value' | 'invalid_option' | 'invalid_signature' | 'too_long';

/**
 * The longest text or email answer, in UTF-16 units, in a submission and in a draft alike: a long
 * medical history fits many times over; without it one field could fill the 4 MiB body.
 */
export const maxTextAnswerLength = 10_000;

const boundedText = (value: string | boolean): FieldShapeError | null =>
  typeof value === 'string' && value.length > maxTextAnswerLength ? 'too_long' : null;

export interface FieldTypeRules {
  /** Holds an entered value in inputData. */
  hasValue: boolean;
  /** Its `validations` are applied (title and paragraph are skipped: docs/forms.md#validations). */
  validated: boolean;
  /** Its text is cleaned (`cleanText`) before validation (text and email). */
  cleans: boolean;
  /** The JavaScript type of its value. */
  valueType: 'string' | 'boolean' | null;
  /** The type's own check of a non-empty value of the right JavaScript type. */
  check?: (value: string | boolean, field: FormField) => FieldShapeError | null;
}

export const fieldTypeRegistry: Record<FieldType, FieldTypeRules> = {
  text: { hasValue: true, validated: true, cleans: true, valueType: 'string', check: boundedText },
  email: { hasValue: true, validated: true, cleans: true, valueType: 'string', check: boundedText },
  select: {
    hasValue: true,
    validated: true,
    cleans: false,
    valueType: 'string',
    check: (value, field) =>
      (field.options ?? []).some((option) => option.value === value) ? null : 'invalid_option',
  },
  checkbox: { hasValue: true, validated: true, cleans: false, valueType: 'boolean' },
  signature: {
    hasValue: true,
    validated: true,
    cleans: false,
    valueType: 'string',
    check: (value) =>
      typeof value === 'string' && isSignatureDataUrl(value) ? null : 'invalid_signature',
  },
  html: { hasValue: false, validated: false, cleans: false, valueType: null },
  title: { hasValue: false, validated: false, cleans: false, valueType: null },
  paragraph: { hasValue: false, validated: false, cleans: false, valueType: null },
};

/** The value as validation sees it: cleaned when the type cleans. */
export function preparedValue(field: FormField, value: FieldValue): FieldValue {
  return typeof value === 'string' && fieldTypeRegistry[field.type].cleans
    ? cleanText(value)
    : value;
}
