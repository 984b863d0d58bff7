import { z } from 'zod';
import { parseCondition } from '../forms/engine.js';
import { fieldTypeRegistry } from '../forms/registry.js';
import {
  formFieldSchema,
  formSchemaSchema,
  formStepSchema,
  inputDataSchema,
  type FormSchema,
  type ValidationKind,
} from '../forms/schema.js';
import { isValidIsraeliId, isValidIsraeliMobile, normaliseIdNumber } from '../identity.js';
import { localDateSchema } from '../clinic.js';

// Intake forms through the integration API (docs/integration.md, "Intake forms"): the clinic's
// templates, the links it sends (form requests) and what patients submitted. Entities are
// snake_case; write bodies are strict, so a misspelt property is a 400 naming it.

/** How long a link works unless the request says otherwise, and the longest it may. */
export const FORM_LINK_DEFAULT_DAYS = 30;
export const FORM_LINK_MAX_DAYS = 365;

export const FORM_REQUESTS_DEFAULT_LIMIT = 50;
export const FORM_REQUESTS_MAX_LIMIT = 200;

const MAX_STORED_ID = 2_147_483_647;

const idSchema = z
  .number({ error: 'Expected a whole number' })
  .int('Expected a whole number')
  .positive('Expected a positive whole number')
  .max(MAX_STORED_ID, 'Expected a stored id');

export const formTemplateNameSchema = z.string().trim().min(1, 'Must not be empty').max(200);

// The engine's field and step, strict: `condition` for `conditions` would otherwise be dropped
// silently and the field shown always.
const strictFieldSchema = z.strictObject(formFieldSchema.shape);
const strictStepSchema = z.strictObject({
  ...formStepSchema.shape,
  fields: z.array(strictFieldSchema).max(500),
});

/** Validation kinds that read text: on a checkbox, select or signature they can never pass. */
const textFormats: ReadonlySet<ValidationKind> = new Set([
  'emailFormat',
  'phoneFormat',
  'dateFormat',
  'idFormat',
  'birthDateFormat',
]);

export interface FormSchemaIssue {
  /** From the schema's root: `[0, 'fields', 2, 'conditions']`. */
  path: (string | number)[];
  message: string;
}

/**
 * What the engine needs of a form beyond its shape, so that a saved template can always be
 * filled in: fields sharing a name share a type (they share one value); a condition names another
 * field that holds a value, an age condition a text field, and conditions do not form a loop (such
 * fields could never be shown); a select has options with distinct values and only a select has
 * options; a default has the field's value type (a readonly field with a wrong one could never be
 * submitted) and a select's literal default is one of its options; text formats only on text and
 * email fields.
 */
export function formSchemaIssues(schema: FormSchema): FormSchemaIssue[] {
  const issues: FormSchemaIssue[] = [];
  const fields = schema.flatMap((step, s) => step.fields.map((field, f) => ({ field, s, f })));
  const typeOfName = new Map<string, string>();
  for (const { field } of fields) {
    if (!typeOfName.has(field.name)) typeOfName.set(field.name, field.type);
  }
  const valued = new Set(
    fields.filter(({ field }) => fieldTypeRegistry[field.type].hasValue).map((x) => x.field.name),
  );
  const dependsOn = new Map<string, Set<string>>();

  for (const { field, s, f } of fields) {
    const at = (...rest: (string | number)[]) => [s, 'fields', f, ...rest];
    const rules = fieldTypeRegistry[field.type];
    const firstType = typeOfName.get(field.name);
    if (firstType !== field.type) {
      issues.push({
        path: at('name'),
        message: `Another field named ${field.name} is a ${firstType}: fields sharing a name share one value, so they must have the same type`,
      });
    }

    const condition = parseCondition(field.conditions);
    if (condition) {
      if (condition.field === field.name) {
        issues.push({ path: at('conditions'), message: 'A field cannot depend on itself' });
      } else if (!valued.has(condition.field)) {
        issues.push({
          path: at('conditions'),
          message: `No field named ${condition.field} holds a value`,
        });
      } else if (condition.kind === 'age' && typeOfName.get(condition.field) !== 'text') {
        issues.push({
          path: at('conditions'),
          message: `An age condition reads a date: ${condition.field} must be a text field`,
        });
      } else {
        const edges = dependsOn.get(field.name) ?? new Set<string>();
        edges.add(condition.field);
        dependsOn.set(field.name, edges);
      }
    }

    if (field.type === 'select') {
      const options = field.options ?? [];
      if (options.length === 0) {
        issues.push({ path: at('options'), message: 'A select needs at least one option' });
      }
      const seen = new Set<string>();
      options.forEach((option, o) => {
        if (seen.has(option.value)) {
          issues.push({
            path: at('options', o, 'value'),
            message: `The value ${option.value} is listed twice`,
          });
        }
        seen.add(option.value);
      });
      const fixed = typeof field.default === 'string' && !field.default.includes('{{');
      if (fixed && field.default !== '' && !seen.has(String(field.default))) {
        issues.push({ path: at('default'), message: 'The default must be one of the options' });
      }
    } else if (field.options !== undefined) {
      issues.push({ path: at('options'), message: 'Only a select has options' });
    }

    if (rules.hasValue && field.default !== undefined && typeof field.default !== rules.valueType) {
      issues.push({ path: at('default'), message: `Expected a ${rules.valueType} default` });
    }

    if (field.type !== 'text' && field.type !== 'email') {
      field.validations.forEach((kind, v) => {
        if (textFormats.has(kind) && rules.validated) {
          issues.push({
            path: at('validations', v),
            message: `${kind} checks text: a ${field.type} field can only be required`,
          });
        }
      });
    }
  }

  // A loop of conditions (a shown only when b has a value, b only when a has one).
  const reaches = (from: string, target: string): boolean => {
    const stack = [...(dependsOn.get(from) ?? [])];
    const seen = new Set<string>();
    for (let name = stack.pop(); name !== undefined; name = stack.pop()) {
      if (name === target) return true;
      if (seen.has(name)) continue;
      seen.add(name);
      stack.push(...(dependsOn.get(name) ?? []));
    }
    return false;
  };
  for (const { field, s, f } of fields) {
    if (
      dependsOn.has(field.name) &&
      parseCondition(field.conditions) &&
      reaches(field.name, field.name)
    ) {
      issues.push({
        path: [s, 'fields', f, 'conditions'],
        message: 'Conditions form a loop: these fields could never be shown',
      });
    }
  }
  return issues;
}

/** A template's form: the engine's schema, strict, and sound (`formSchemaIssues`). */
export const formTemplateSchemaSchema = z
  .array(strictStepSchema)
  .min(1)
  .max(50)
  .superRefine((schema, ctx) => {
    for (const issue of formSchemaIssues(schema)) {
      ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    }
  });

/** `POST /api/integration/form-templates`, and `PUT …/:id` (both replaced). */
export const createFormTemplateBodySchema = z.strictObject({
  name: formTemplateNameSchema,
  schema: formTemplateSchemaSchema,
});
export type CreateFormTemplateBody = z.infer<typeof createFormTemplateBodySchema>;

/** `PATCH /api/integration/form-templates/:id`: the parts to replace. */
export const updateFormTemplateBodySchema = z
  .strictObject({
    name: formTemplateNameSchema.optional(),
    schema: formTemplateSchemaSchema.optional(),
  })
  .refine((body) => body.name !== undefined || body.schema !== undefined, {
    message: 'Send name, schema or both',
  });
export type UpdateFormTemplateBody = z.infer<typeof updateFormTemplateBodySchema>;

/** A template as listed: without its schema. Times are ISO 8601 UTC. */
export const formTemplateSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type FormTemplateSummary = z.infer<typeof formTemplateSummarySchema>;

export const formTemplateSummariesSchema = z.array(formTemplateSummarySchema);

export const formTemplateSchema = formTemplateSummarySchema.extend({ schema: formSchemaSchema });
export type FormTemplate = z.infer<typeof formTemplateSchema>;

/** `initData` of a link: the values of the form's `{{initData.key}}` placeholders. */
const initDataBodySchema = z
  .record(z.string().min(1).max(100), z.string().max(2000))
  .refine((data) => Object.keys(data).length <= 100, 'At most 100 keys');

/** A patient's ID number as the clinic knows them: checked, and padded to 9 digits. */
const patientIdNumberSchema = z
  .string()
  .max(20)
  .refine(isValidIsraeliId, 'Expected a valid Israeli ID number')
  .transform(normaliseIdNumber);

const sendToPhoneSchema = z
  .string()
  .max(30)
  .refine(isValidIsraeliMobile, 'Expected an Israeli mobile number (05X-XXXXXXX or +972…)');

/** `POST /api/integration/form-requests`. */
export const createFormRequestBodySchema = z.strictObject({
  template_id: idSchema,
  init_data: initDataBodySchema.optional(),
  expires_in_days: z
    .number()
    .int('Expected a whole number of days')
    .min(1)
    .max(FORM_LINK_MAX_DAYS)
    .optional()
    .describe(`1 to ${FORM_LINK_MAX_DAYS}; default ${FORM_LINK_DEFAULT_DAYS}`),
  send_to_phone: sendToPhoneSchema
    .optional()
    .describe(
      'An Israeli mobile number: the link is sent there in the clinic’s name, by the clinic’s channel (WhatsApp when chosen and connected, else SMS)',
    ),
  patient_id_number: patientIdNumberSchema
    .optional()
    .describe(
      "The patient the form is for, one of the clinic's (by ID number; 404 patient_not_found otherwise): the request is listed with them, and init_data starts with what the clinic knows of them (firstName, lastName, fullName, idNumber, phone, clinicName; keys sent in init_data win)",
    ),
});
export type CreateFormRequestBody = z.infer<typeof createFormRequestBodySchema>;

/**
 * `pending` until submitted or cancelled; `expired` is a pending request past its `expires_at`
 * (its link answers 404 like a cancelled one).
 */
export const formRequestStatuses = ['pending', 'submitted', 'cancelled', 'expired'] as const;
export const formRequestStatusSchema = z.enum(formRequestStatuses);
export type FormRequestStatus = z.infer<typeof formRequestStatusSchema>;

/** How a link was sent to the patient's phone. */
export const formLinkChannels = ['sms', 'whatsapp'] as const;

/** `201` of a create: the link is in this answer only (only its hash is kept). */
export const createdFormRequestSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  expires_at: z.string(),
  status: formRequestStatusSchema,
  /** The channel the link went by with `send_to_phone`; null when it was not sent. */
  sent_by: z.enum(formLinkChannels).nullable(),
});
export type CreatedFormRequest = z.infer<typeof createdFormRequestSchema>;

/** `POST /api/integration/form-requests/:id/resend`: a fresh link for a pending request. */
export const resendFormRequestBodySchema = z.strictObject({
  send_to_phone: sendToPhoneSchema
    .optional()
    .describe('An Israeli mobile number: the new link is sent there by the clinic’s channel'),
  expires_in_days: z
    .number()
    .int('Expected a whole number of days')
    .min(1)
    .max(FORM_LINK_MAX_DAYS)
    .optional()
    .describe('The new link works this many days from now; by default until the request expires'),
});
export type ResendFormRequestBody = z.infer<typeof resendFormRequestBodySchema>;

/** `200` of a resend: the new link, in this answer only; the one sent before no longer works. */
export const resentFormRequestSchema = createdFormRequestSchema.extend({
  previous_link_ended: z
    .literal(true)
    .describe('The link sent before answers 404 from now on (answers and draft are kept)'),
});
export type ResentFormRequest = z.infer<typeof resentFormRequestSchema>;

/**
 * Where a request stands as the desk shows it, finer than `status`: a pending one is `sent`
 * until the patient opens the link, `opened` then, `draft_saved` once answers are kept unsent.
 */
export const formRequestStages = [
  'sent',
  'opened',
  'draft_saved',
  'submitted',
  'expired',
  'cancelled',
] as const;
export const formRequestStageSchema = z.enum(formRequestStages);
export type FormRequestStage = z.infer<typeof formRequestStageSchema>;

/** A form request without its link. Times are ISO 8601 UTC. */
export const formRequestSchema = z.object({
  id: z.number().int(),
  /** The patient it was sent for ('' when made without one). */
  patient_id_number: z.string(),
  /** Their name as the clinic has it now ('' without a patient, or one no longer on file). */
  patient_name: z.string(),
  stage: formRequestStageSchema,
  /** When the patient first opened the link. */
  opened_at: z.string().nullable(),
  /** When the patient's unsent answers were last kept (null without a draft). */
  draft_saved_at: z.string().nullable(),
  /** null once the template is deleted (the request keeps its own copy of the form). */
  template_id: z.number().int().nullable(),
  template_name: z.string().nullable(),
  status: formRequestStatusSchema,
  created_at: z.string(),
  expires_at: z.string(),
  submitted_at: z.string().nullable(),
});
export type FormRequest = z.infer<typeof formRequestSchema>;

export const formRequestsSchema = z.array(formRequestSchema);

/** `GET /api/integration/form-requests`: newest first; `before` pages on from a request id. */
export const formRequestsQuerySchema = z.object({
  status: formRequestStatusSchema.optional(),
  stage: formRequestStageSchema
    .optional()
    .describe('Only requests at this stage (finer than status: sent, opened, draft_saved…)'),
  patient_id_number: patientIdNumberSchema.optional().describe("Only this patient's requests"),
  from: localDateSchema.optional().describe('Made on or after this day (clinic time)'),
  to: localDateSchema.optional().describe('Made on or before this day (clinic time)'),
  before: z.coerce.number().int().positive().max(MAX_STORED_ID).optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(FORM_REQUESTS_MAX_LIMIT)
    .default(FORM_REQUESTS_DEFAULT_LIMIT),
});
export type FormRequestsQuery = z.infer<typeof formRequestsQuerySchema>;

/** `GET …/form-requests/:id/submission`: the answers, signatures as image data URLs. */
export const formSubmissionSchema = z.object({
  values: inputDataSchema,
  submitted_at: z.string(),
  /** The request's own form with its placeholders resolved: the form as the patient saw it. */
  schema: formSchemaSchema,
});
export type FormSubmission = z.infer<typeof formSubmissionSchema>;
