/**
 * The intake-form engine both the page and the server run (docs/forms.md): conditions, pruning
 * hidden values, step validation, the server's check of a whole submission, and placeholder
 * resolution. Pure; `today` is passed in.
 */
import type { CalendarDate } from './dates.js';
import { ageOn, normaliseDate, parseDayMonthYear } from './dates.js';
import type { FieldShapeError } from './registry.js';
import { fieldTypeRegistry, preparedValue } from './registry.js';
import type {
  FormField,
  FormSchema,
  FormStep,
  InitData,
  InputData,
  ValidationKind,
} from './schema.js';
import { resolvePlaceholders } from './text.js';
import type { FieldValue } from './validation.js';
import { readDate, validateField } from './validation.js';

/** A parsed `conditions` string. */
export type Condition =
  | { kind: 'truthy'; field: string }
  | { kind: 'age'; field: string; operator: '>' | '<' | '='; years: number };

const ageCondition = /^(.+?)\s*:\s*age\s*([<>=])\s*(\d+)$/;

/**
 * `field:age>N`, `field:age<N`, `field:age=N` (spaces tolerated), otherwise the name of another
 * field. Null for no condition (absent or blank).
 */
export function parseCondition(conditions: string | undefined): Condition | null {
  const text = conditions?.trim() ?? '';
  if (text === '') return null;
  const age = ageCondition.exec(text);
  if (age) {
    const [, field = '', operator, years] = age;
    return { kind: 'age', field, operator: operator as '>' | '<' | '=', years: Number(years) };
  }
  return { kind: 'truthy', field: text };
}

/**
 * docs/forms.md#conditions. No condition: shown. A field name: shown when that field's value is
 * truthy (non-empty text, a ticked checkbox). `field:age>N`: shown when the age in whole years
 * (`ageOn`) on `today` of the date in `field` is ≥ N (the product's rule: `>` means at least);
 * `<N` is age < N, `=N` age = N. The date is read like dateFormat (dots and dashes, 2-digit
 * years); a missing or malformed date hides the field.
 */
export function isVisible(
  field: Pick<FormField, 'conditions'>,
  inputData: InputData,
  today: CalendarDate,
): boolean {
  const condition = parseCondition(field.conditions);
  if (!condition) return true;
  const value = Object.hasOwn(inputData, condition.field) ? inputData[condition.field] : undefined;
  if (condition.kind === 'truthy') return Boolean(value);
  if (typeof value !== 'string') return false;
  const birth = parseDayMonthYear(normaliseDate(value.trim(), today));
  if (!birth) return false;
  const age = ageOn(birth, today);
  if (condition.operator === '>') return age >= condition.years;
  if (condition.operator === '<') return age < condition.years;
  return age === condition.years;
}

function allFields(schema: FormSchema): FormField[] {
  return schema.flatMap((step) => step.fields);
}

/**
 * After a change, deletes the values of fields that are hidden, unless a visible field
 * with the same name remains. Repeats until nothing changes, so a field whose condition pointed
 * at a now-deleted value is pruned too. Returns a new object; keys of no field are left alone.
 */
export function pruneHidden(
  schema: FormSchema,
  inputData: InputData,
  today: CalendarDate,
): InputData {
  const fields = allFields(schema);
  let result: InputData = { ...inputData };
  for (;;) {
    const current = result;
    const visibleNames = new Set(
      fields.filter((field) => isVisible(field, current, today)).map((field) => field.name),
    );
    const doomed = new Set(
      fields
        .filter((field) => !visibleNames.has(field.name) && Object.hasOwn(current, field.name))
        .map((field) => field.name),
    );
    if (doomed.size === 0) return result;
    result = Object.fromEntries(Object.entries(current).filter(([name]) => !doomed.has(name)));
  }
}

function checksField(field: FormField): boolean {
  return fieldTypeRegistry[field.type].validated && field.validations.length > 0;
}

function valueOf(inputData: InputData, name: string): FieldValue {
  return Object.hasOwn(inputData, name) ? inputData[name] : undefined;
}

/**
 * The step's visible fields that have validations, each value cleaned first (text and
 * email); field name → the first failing kind. Empty when the step may be left.
 */
export function validateStep(
  step: FormStep,
  inputData: InputData,
  today: CalendarDate,
): Record<string, ValidationKind> {
  const errors: Record<string, ValidationKind> = {};
  for (const field of step.fields) {
    if (!checksField(field) || !isVisible(field, inputData, today)) continue;
    const kind = validateField(field, preparedValue(field, valueOf(inputData, field.name)), {
      today,
    });
    if (kind && !Object.hasOwn(errors, field.name)) errors[field.name] = kind;
  }
  return errors;
}

export type SubmissionError = ValidationKind | FieldShapeError | 'unknown_field';

export interface SubmissionResult {
  /** What to store: visible fields' values only, text cleaned, valid dates as `DD/MM/YYYY`. */
  values: InputData;
  /** Field name (or unknown key) → what is wrong; empty when the submission is accepted. */
  errors: Record<string, SubmissionError>;
}

/**
 * The server's check of a whole submission. Pass the schema through `resolveForm` first so
 * readonly defaults are the patient's own. In order, per visible field with a value type:
 * a readonly field with a default takes that default (what was sent is ignored); the value must
 * have the type's JavaScript type (`invalid_value`); text and email are cleaned; a non-empty
 * select must be one of its options (`invalid_option`), a non-empty signature a valid image data
 * URL (`invalid_signature`); then the field's validations (first failing kind). Values of hidden
 * fields are dropped without error (after `pruneHidden`); a key that names no field with a value
 * is `unknown_field`. A valid dateFormat / birthDateFormat value is stored normalised.
 */
export function validateSubmission(
  schema: FormSchema,
  inputData: InputData,
  today: CalendarDate,
): SubmissionResult {
  const fields = allFields(schema);
  const errors: Record<string, SubmissionError> = {};
  const values: InputData = {};
  const fail = (name: string, error: SubmissionError): void => {
    if (!Object.hasOwn(errors, name)) errors[name] = error;
  };

  const valued = new Set(
    fields.filter((f) => fieldTypeRegistry[f.type].hasValue).map((f) => f.name),
  );
  for (const key of Object.keys(inputData)) if (!valued.has(key)) fail(key, 'unknown_field');

  const pruned = pruneHidden(schema, inputData, today);
  for (const field of fields) {
    const rules = fieldTypeRegistry[field.type];
    if (!rules.hasValue || !isVisible(field, pruned, today)) continue;
    const sent =
      field.readonly && field.default !== undefined ? field.default : valueOf(pruned, field.name);
    if (sent !== undefined && typeof sent !== rules.valueType) {
      fail(field.name, 'invalid_value');
      continue;
    }
    let value = preparedValue(field, sent);
    if (value !== undefined && value !== '' && value !== false && rules.check) {
      const shape = rules.check(value, field);
      if (shape) {
        fail(field.name, shape);
        continue;
      }
    }
    const kind = rules.validated ? validateField(field, value, { today }) : null;
    if (kind) {
      fail(field.name, kind);
      continue;
    }
    if (
      typeof value === 'string' &&
      field.validations.some((k) => k === 'dateFormat' || k === 'birthDateFormat') &&
      readDate(value, today)
    ) {
      value = normaliseDate(value, today);
    }
    if (value !== undefined) values[field.name] = value;
  }
  return { values, errors };
}

export type DraftError = FieldShapeError | 'unknown_field';

/**
 * What a draft may hold: a half-filled form, so no validation kinds and no cleaning (the text
 * stays as typed), but only keys of value-holding fields, each of its field's JavaScript type and,
 * when not empty, of its shape (a select's option, a signature image). Use on a resolved form.
 */
export function checkDraft(schema: FormSchema, inputData: InputData): Record<string, DraftError> {
  const errors: Record<string, DraftError> = {};
  const fields = allFields(schema).filter((f) => fieldTypeRegistry[f.type].hasValue);
  for (const [name, value] of Object.entries(inputData)) {
    // Fields sharing a name (opposite conditions) share its value: any of them may accept it.
    const named = fields.filter((f) => f.name === name);
    if (named.length === 0) {
      errors[name] = 'unknown_field';
      continue;
    }
    let error: DraftError | null = 'invalid_value';
    for (const field of named) {
      const rules = fieldTypeRegistry[field.type];
      if (typeof value !== rules.valueType) continue;
      error = value !== '' && value !== false && rules.check ? rules.check(value, field) : null;
      if (error === null) break;
    }
    if (error) errors[name] = error;
  }
  return errors;
}

/**
 * docs/forms.md#placeholders: step titles, field titles and string defaults with `{{initData.key}}`
 * resolved (missing keys → empty, so an unresolved default becomes empty). Values inserted into an
 * html field's title are HTML-escaped.
 */
export function resolveForm(schema: FormSchema, initData: InitData): FormSchema {
  return schema.map((step) => ({
    ...step,
    title: resolvePlaceholders(step.title, initData),
    fields: step.fields.map((field) => ({
      ...field,
      title: resolvePlaceholders(field.title, initData, { escape: field.type === 'html' }),
      ...(typeof field.default === 'string'
        ? { default: resolvePlaceholders(field.default, initData) }
        : {}),
    })),
  }));
}

/**
 * The input a form starts with: each value-holding field's default (first field of a name wins),
 * when its type matches the field's (string for text, email, select, signature; boolean for a
 * checkbox). Use on a resolved form.
 */
export function defaultInputData(schema: FormSchema): InputData {
  const data: InputData = {};
  for (const field of allFields(schema)) {
    const rules = fieldTypeRegistry[field.type];
    if (!rules.hasValue || field.default === undefined || Object.hasOwn(data, field.name)) continue;
    if (typeof field.default === rules.valueType) data[field.name] = field.default;
  }
  return data;
}
