import { z } from 'zod';
import { isValidIsraeliId, isValidIsraeliMobile, normaliseIdNumber } from '../identity.js';
import { nameSchema } from '../patient-auth.js';

// The clinic's corrections of its patients (docs/integration.md "Patients"; issue 25).

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
