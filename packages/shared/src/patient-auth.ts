import { z } from 'zod';
import { isValidIsraeliId, normaliseIdNumber, normaliseIsraeliMobile } from './identity.js';
import { cleanName, NAME_MAX_LENGTH, OTP_LENGTH } from './patient-auth-rules.js';

export {
  cleanName,
  MAX_IDENTITIES_PER_PHONE,
  NAME_MAX_LENGTH,
  OTP_LENGTH,
  OTP_RESEND_SECONDS,
  PHONE_HINT_DIGITS,
} from './patient-auth-rules.js';

/**
 * The texts the server answers with are docs/product/login.md#rules; the web translates by code.
 */
export const idNumberSchema = z
  .string({ error: 'Invalid ID number' })
  .refine(isValidIsraeliId, 'Invalid ID number')
  .transform(normaliseIdNumber);

export const phoneSchema = z.string({ error: 'Invalid phone number' }).transform((value, ctx) => {
  const phone = normaliseIsraeliMobile(value);
  if (phone === null) {
    ctx.addIssue({ code: 'custom', message: 'Invalid phone number' });
    return z.NEVER;
  }
  return phone;
});

export const nameSchema = z
  .string({ error: 'Required field' })
  .transform(cleanName)
  .pipe(
    z
      .string()
      .min(1, 'Required field')
      .max(NAME_MAX_LENGTH, `At most ${NAME_MAX_LENGTH} characters`),
  );

const clinicIdSchema = z
  .number({ error: 'Expected a clinic id' })
  .int('Expected a clinic id')
  .positive('Expected a clinic id')
  .max(2_147_483_647, 'Expected a clinic id');

/** `POST /api/patient-auth/login`. */
export const loginBodySchema = z.object({
  clinicId: clinicIdSchema,
  phone: phoneSchema,
  idNumber: idNumberSchema,
});
export type LoginBody = z.input<typeof loginBodySchema>;

/** `POST /api/patient-auth/sign-up`. */
export const signUpBodySchema = loginBodySchema.extend({
  firstName: nameSchema,
  lastName: nameSchema,
});
export type SignUpBody = z.input<typeof signUpBodySchema>;

/** The answer of login and sign-up: the code was sent. */
export const twoFactorTokenResponseSchema = z.object({ twoFactorToken: z.string() });
export type TwoFactorTokenResponse = z.infer<typeof twoFactorTokenResponseSchema>;

/** `POST /api/patient-auth/two-factor`. */
export const twoFactorBodySchema = z.object({
  idNumber: idNumberSchema,
  code: z
    .string({ error: 'Required field' })
    .regex(new RegExp(`^\\d{${OTP_LENGTH}}$`), `Expected ${OTP_LENGTH} digits`),
  twoFactorToken: z.string({ error: 'Required field' }).min(1, 'Required field').max(200),
});
export type TwoFactorBody = z.input<typeof twoFactorBodySchema>;

/**
 * A patient (docs/product/login.md#calls). `phone` is national, `05XXXXXXXX`; `id_number` 9 digits.
 */
export const patientSchema = z.object({
  id: z.number().int(),
  id_number: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  phone: z.string(),
});
export type Patient = z.infer<typeof patientSchema>;

/** The answer of two-factor: the patient and the session token (a bearer token). */
export const twoFactorResponseSchema = z.object({ patient: patientSchema, token: z.string() });
export type TwoFactorResponse = z.infer<typeof twoFactorResponseSchema>;

/** `GET /api/patient-auth/logout`. */
export const logoutResponseSchema = z.object({ status: z.literal('ok') });
