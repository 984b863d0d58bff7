import { z } from 'zod';

/** docs/forms.md#field-types. */
export const fieldTypes = [
  'text',
  'email',
  'select',
  'checkbox',
  'signature',
  'html',
  'title',
  'paragraph',
] as const;
export type FieldType = (typeof fieldTypes)[number];

/** docs/forms.md#validations. */
export const validationKinds = [
  'required',
  'emailFormat',
  'phoneFormat',
  'dateFormat',
  'idFormat',
  'birthDateFormat',
] as const;
export type ValidationKind = (typeof validationKinds)[number];

/** One choice of a select. */
export const fieldOptionSchema = z.object({ value: z.string(), label: z.string() });
export type FieldOption = z.infer<typeof fieldOptionSchema>;

/**
 * A form field (docs/forms.md#schema). `title` and `default` may hold `{{initData.key}}`
 * placeholders; `conditions` is another field's name, or `field:age>N` / `<N` / `=N`; `mask` uses
 * `#` digit, `@` letter, `*` letter or digit. html/title/paragraph fields display `title` only.
 */
export const formFieldSchema = z.object({
  name: z.string().min(1).max(100),
  type: z.enum(fieldTypes),
  title: z.string().max(5000).default(''),
  options: z.array(fieldOptionSchema).optional(),
  default: z.union([z.string(), z.boolean()]).optional(),
  validations: z.array(z.enum(validationKinds)).default([]),
  conditions: z.string().max(200).optional(),
  mask: z.string().max(100).optional(),
  placeholder: z.string().max(200).optional(),
  readonly: z.boolean().optional(),
  wrapperClass: z.string().max(200).optional(),
});
export type FormField = z.infer<typeof formFieldSchema>;

/**
 * A form step (docs/forms.md#schema); `is_ltr` on the first step turns the whole form
 * left-to-right.
 */
export const formStepSchema = z.object({
  title: z.string().max(500),
  next_button: z.string().max(100),
  prev_button: z.string().max(100).optional(),
  fields: z.array(formFieldSchema),
  is_ltr: z.boolean().optional(),
});
export type FormStep = z.infer<typeof formStepSchema>;

/** A form: its steps, in order. */
export const formSchemaSchema = z.array(formStepSchema).min(1);
export type FormSchema = z.infer<typeof formSchemaSchema>;

/** Values a clinic fills in for one patient's link (`{{initData.key}}` in titles and defaults). */
export const initDataSchema = z.record(z.string(), z.string());
export type InitData = z.infer<typeof initDataSchema>;

/**
 * What the patient entered: field name → text, a checkbox's boolean, or a signature's image
 * data URL (docs/product/intake-form.md#form-store).
 */
export const inputDataSchema = z.record(z.string(), z.union([z.string(), z.boolean()]));
export type InputData = z.infer<typeof inputDataSchema>;

/** A link token as the address carries it. */
const formTokenSchema = z.string().min(1).max(200);

/** `POST /api/get-form`. */
export const getFormBodySchema = z.object({ token: formTokenSchema });
export const intakeFormDataSchema = z.object({
  schema: formSchemaSchema,
  initData: initDataSchema,
  headerImage: z.string(),
});
export type IntakeFormData = z.infer<typeof intakeFormDataSchema>;

/**
 * The answers a patient has not sent yet, kept on the server through the link (encrypted like a
 * submission) so that nothing stays on the device and the form resumes on another one.
 */
export const formDraftSchema = z.object({
  inputData: inputDataSchema,
  /** The step the patient was on. */
  stepIndex: z.int().min(0).max(1000),
});
export type FormDraft = z.infer<typeof formDraftSchema>;

/**
 * `draft`: the link's unsent answers, or null; `clinicId`: the clinic that sent the link, which
 * the completed and expired pages name (both Marpe's additions to the answer of
 * docs/product/intake-form.md#calls).
 */
export const getFormResponseSchema = z.object({
  data: intakeFormDataSchema,
  draft: formDraftSchema.nullable(),
  clinicId: z.int().positive(),
});
export type GetFormResponse = z.infer<typeof getFormResponseSchema>;

/** `POST /api/save-form-draft`: replaces the link's draft. */
export const saveFormDraftBodySchema = formDraftSchema.extend({ token: formTokenSchema });
export type SaveFormDraftBody = z.infer<typeof saveFormDraftBodySchema>;
export const saveFormDraftResponseSchema = z.object({ status: z.literal('ok') });

/** `POST /api/submit`. */
export const submitFormBodySchema = z.object({
  token: formTokenSchema,
  inputData: inputDataSchema,
});
export const submitFormResponseSchema = z.object({ status: z.literal('ok') });
