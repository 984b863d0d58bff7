import { z } from 'zod';
import { isValidIsraeliId, isValidIsraeliMobile, normaliseIdNumber } from '../identity.js';
import { nameSchema } from '../patient-auth.js';

// The clinic's corrections of its patients (docs/integration.md "Patients"; ADR 027).

/** `PATCH /api/integration/patients/{idNumber}`: the ID number in the path, 9 digits or fewer. */
export const integrationPatientParamsSchema = z.object({
  idNumber: z
    .string()
    .max(20)
    .refine(isValidIsraeliId, 'Expected a valid Israeli ID number')
    .transform(normaliseIdNumber),
});

export const updatePatientBodySchema = z
  .strictObject({
    phone: z
      .string()
      .max(30)
      .refine(isValidIsraeliMobile, 'Expected an Israeli mobile number (05X-XXXXXXX or +972…)')
      .optional()
      .describe('The number the patient logs in with from now on (their codes go there)'),
    /** As a booking's new patient gives it (spaces tidied, 1 to 50 characters). */
    first_name: nameSchema.optional(),
    last_name: nameSchema.optional(),
  })
  .refine(
    (body) =>
      body.phone !== undefined || body.first_name !== undefined || body.last_name !== undefined,
    'Send at least one of phone, first_name, last_name',
  );
export type UpdatePatientBody = z.infer<typeof updatePatientBodySchema>;

/** Why an ID number was given back to its owner, for the audit log (1 to 500 characters). */
export const REASSIGN_REASON_MAX_LENGTH = 500;

/**
 * `POST /api/integration/patients/{idNumber}/reassign`: the ID number given back to its owner
 * (someone else had signed up with it), after the clinic checked an identity document. Every
 * field is required: the owner's phone and names replace the record's together.
 */
export const reassignPatientBodySchema = z.strictObject({
  phone: z
    .string({ error: 'Required field' })
    .max(30)
    .refine(isValidIsraeliMobile, 'Expected an Israeli mobile number (05X-XXXXXXX or +972…)')
    .describe("The owner's mobile: they log in with it from now on"),
  first_name: nameSchema,
  last_name: nameSchema,
  identity_document_checked: z
    .literal(true, { error: 'Confirm that an identity document of the owner was checked' })
    .describe('true: staff saw an identity document of the owner with this ID number'),
  reason: z
    .string({ error: 'Required field' })
    .trim()
    .min(1, 'Required field')
    .max(REASSIGN_REASON_MAX_LENGTH, `At most ${REASSIGN_REASON_MAX_LENGTH} characters`)
    .describe('Why, for the audit log'),
});
export type ReassignPatientBody = z.infer<typeof reassignPatientBodySchema>;

/** A patient as the clinic sees it. */
export const integrationPatientSchema = z.object({
  id: z.number().int(),
  id_number: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  /** 05XXXXXXXX. */
  phone: z.string(),
});
export type IntegrationPatient = z.infer<typeof integrationPatientSchema>;

export const integrationPatientsSchema = z.array(integrationPatientSchema);

/** The answer to a reassignment: the record as now on file, and what staff should review. */
export const reassignedPatientSchema = z.object({
  patient: integrationPatientSchema,
  /** The ID's sessions that ended (whoever held them proved the old phone). */
  sessions_ended: z.number().int(),
  /**
   * The ID's upcoming booked appointments, kept: some may be the other person's; staff ask the
   * owner and cancel those that are not theirs.
   */
  upcoming_appointment_ids: z.array(z.number().int()),
});
export type ReassignedPatient = z.infer<typeof reassignedPatientSchema>;
