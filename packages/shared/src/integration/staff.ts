import { z } from 'zod';
import { nameSchema, phoneSchema } from '../patient-auth.js';
import { OTP_LENGTH } from '../patient-auth-rules.js';

// The clinic's staff and their sign-in to the desk (docs/desk.md). Staff accounts are separate
// from patients': a phone may be both, as two accounts.

/** `owner`: everything. `front_desk`: the diary, patients, links, forms and payments. */
export const staffRoles = ['owner', 'front_desk'] as const;
export const staffRoleSchema = z.enum(staffRoles);
export type StaffRole = z.infer<typeof staffRoleSchema>;

/** The header a staff session names the clinic it acts for with, when it belongs to several. */
export const STAFF_CLINIC_HEADER = 'x-marpe-clinic';

/** How long an invitation link stays valid. */
export const STAFF_INVITATION_DAYS = 7;

const codeSchema = z
  .string({ error: 'Required field' })
  .regex(new RegExp(`^\\d{${OTP_LENGTH}}$`), `Expected ${OTP_LENGTH} digits`);
const tokenSchema = z.string({ error: 'Required field' }).min(1, 'Required field').max(200);

/** `POST /api/staff-auth/sign-in`: a code to the phone, if it is a staff member's. */
export const staffSignInBodySchema = z.strictObject({ phone: phoneSchema });
export type StaffSignInBody = z.input<typeof staffSignInBodySchema>;

/** `POST /api/staff-auth/two-factor`. */
export const staffTwoFactorBodySchema = z.strictObject({
  twoFactorToken: tokenSchema,
  code: codeSchema,
});
export type StaffTwoFactorBody = z.input<typeof staffTwoFactorBodySchema>;

export const staffTokenParamsSchema = z.object({ token: tokenSchema });

/** The clinics a staff account works at, with its role at each. */
export const staffMembershipSchema = z.object({
  clinic_id: z.number().int(),
  clinic_name: z.string(),
  role: staffRoleSchema,
});
export type StaffMembership = z.infer<typeof staffMembershipSchema>;

/** `GET /api/staff-auth/session`: who is signed in, where, and until when. */
export const staffSessionSchema = z.object({
  account: z.object({ id: z.number().int(), name: z.string(), phone: z.string() }),
  memberships: z.array(staffMembershipSchema),
  /** How this session was opened. */
  method: z.enum(['sms', 'passkey']),
  /** The absolute end (ISO 8601). */
  expires_at: z.string(),
  /** Minutes without a call after which the session ends. */
  idle_timeout_minutes: z.number().int(),
  /** Whether the account has a passkey yet (the desk suggests adding one). */
  has_passkey: z.boolean(),
});
export type StaffSession = z.infer<typeof staffSessionSchema>;

/** `GET /api/staff-auth/invitations/:token`: what the invitation is for, before its code. */
export const staffInvitationViewSchema = z.object({
  clinic_name: z.string(),
  name: z.string(),
  role: staffRoleSchema,
  /** The invited phone's last digits: the code goes there. */
  phone_hint: z.string(),
  expires_at: z.string(),
});
export type StaffInvitationView = z.infer<typeof staffInvitationViewSchema>;

/** A passkey of the signed-in account (never its key). */
export const staffPasskeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type StaffPasskey = z.infer<typeof staffPasskeySchema>;

export const passkeyNameSchema = z
  .string({ error: 'Required field' })
  .trim()
  .min(1, 'Required field')
  .max(100, 'At most 100 characters');

/**
 * A WebAuthn response as @simplewebauthn/browser returns it; @simplewebauthn/server checks it
 * whole, so only its outer shape is held here.
 */
const webAuthnResponseSchema = z
  .object({ id: z.string().min(1).max(1500), rawId: z.string().max(1500), type: z.string() })
  .passthrough();

/** `POST /api/staff-auth/passkeys`: the new passkey, as the browser made it. */
export const registerPasskeyBodySchema = z.strictObject({
  name: passkeyNameSchema,
  response: webAuthnResponseSchema,
});

/** `POST /api/staff-auth/passkey-sign-in`. */
export const passkeySignInBodySchema = z.strictObject({ response: webAuthnResponseSchema });

/** WebAuthn options for the browser (as @simplewebauthn/server makes them). */
export const webAuthnOptionsSchema = z.record(z.string(), z.unknown());

/** One staff member of the clinic, as its owners manage them. */
export const staffMemberSchema = z.object({
  /** The membership's id. */
  id: z.number().int(),
  account_id: z.number().int(),
  name: z.string(),
  phone: z.string(),
  role: staffRoleSchema,
  created_at: z.string(),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;

export const staffInvitationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  phone: z.string(),
  role: staffRoleSchema,
  created_at: z.string(),
  expires_at: z.string(),
});
export type StaffInvitation = z.infer<typeof staffInvitationSchema>;

/** `GET /api/integration/staff`: the members and the invitations still open. */
export const staffListSchema = z.object({
  members: z.array(staffMemberSchema),
  invitations: z.array(staffInvitationSchema),
});
export type StaffList = z.infer<typeof staffListSchema>;

/** `POST /api/integration/staff/invitations`. */
export const createStaffInvitationBodySchema = z.strictObject({
  name: nameSchema,
  phone: phoneSchema,
  role: staffRoleSchema,
  /** true: the link goes to the phone by SMS too (default true). */
  send_sms: z.boolean().optional(),
});
export type CreateStaffInvitationBody = z.input<typeof createStaffInvitationBodySchema>;

/** The new invitation and its link, shown this once. */
export const createdStaffInvitationSchema = staffInvitationSchema.extend({ url: z.string() });
export type CreatedStaffInvitation = z.infer<typeof createdStaffInvitationSchema>;

/** `PATCH /api/integration/staff/:id`. */
export const updateStaffMemberBodySchema = z.strictObject({ role: staffRoleSchema });
