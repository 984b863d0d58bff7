import { z } from 'zod';

// A clinic's connections to third parties (docs/integration.md, "WhatsApp" and "Tax Authority
// (SHAAM)"): its software starts one with its API key and gets a single-use link or state; a
// person at the clinic then finishes it in the browser (/whatsapp-signup, /shaam-auth).

export * from './connections-rules.js';

/** Meta's numeric ids (WhatsApp Business account, phone number, business portfolio). */
const metaIdSchema = z.string().regex(/^\d{1,30}$/, 'Expected the numeric id Meta gave');

/** Connection tokens and states are `randomToken()`: 43 base64url characters. */
const connectionTokenSchema = (what: string) =>
  z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, `Expected ${what}`);

/** `POST /api/integration/whatsapp/connect`: the link to hand to the person connecting. */
export const whatsappConnectResponseSchema = z.object({
  /** Single use; it is the last path segment of `url`. */
  client_id: z.string(),
  /** `<origin>/whatsapp-signup/<client_id>`: open it in a browser to connect. */
  url: z.string(),
  expires_at: z.iso.datetime(),
});
export type WhatsAppConnectResponse = z.infer<typeof whatsappConnectResponseSchema>;

/** `GET /api/integration/whatsapp`: never the token. */
export const whatsappStatusSchema = z.object({
  connected: z.boolean(),
  waba_id: z.string().nullable(),
  phone_number_id: z.string().nullable(),
  business_id: z.string().nullable(),
  connected_at: z.iso.datetime().nullable(),
  /** How the clinic's patients get messages now: 'whatsapp' only while connected. */
  messaging_channel: z.enum(['sms', 'whatsapp']),
});
export type WhatsAppStatus = z.infer<typeof whatsappStatusSchema>;

/** `POST /api/wa-signup` (docs/product/connections.md#whatsapp-sign-up). */
export const waSignupBodySchema = z.object({
  /** `authResponse.code` of `FB.login`. */
  code: z.string().min(1, 'Required').max(4096),
  wabaId: metaIdSchema,
  phoneId: metaIdSchema,
  businessId: metaIdSchema,
  /** The connection token of the page's link. */
  clientId: connectionTokenSchema('the token of the connection link'),
});
export type WaSignupBody = z.infer<typeof waSignupBodySchema>;

export const waSignupResponseSchema = z.object({ status: z.literal('ok') });

/** `POST /api/integration/shaam/connect`: the clinic's OAuth client at the Tax Authority. */
export const shaamConnectBodySchema = z.strictObject({
  client_id: z.string().trim().min(1, 'Required').max(200),
  client_secret: z.string().min(1, 'Required').max(500),
  /** Where the browser goes once connected: https (http is accepted outside production). */
  return_url: z.string().min(1, 'Required').max(2000),
});
export type ShaamConnectBody = z.infer<typeof shaamConnectBodySchema>;

export const shaamConnectResponseSchema = z.object({
  /** Send the person connecting here; the Tax Authority returns them to /shaam-auth. */
  authorization_url: z.string(),
  /** Single use, inside `authorization_url`. */
  state: z.string(),
  expires_at: z.iso.datetime(),
});
export type ShaamConnectResponse = z.infer<typeof shaamConnectResponseSchema>;

/** `GET /api/integration/shaam`: no secrets, no tokens. */
export const shaamStatusSchema = z.object({
  connected: z.boolean(),
  client_id: z.string().nullable(),
  connected_at: z.iso.datetime().nullable(),
  token_expires_at: z.iso.datetime().nullable(),
});
export type ShaamStatus = z.infer<typeof shaamStatusSchema>;

/** `POST /api/shaam-auth`: `code` and `state` as the Tax Authority put them in the query. */
export const shaamAuthBodySchema = z.object({
  code: z.string().min(1, 'Required').max(4096),
  state: connectionTokenSchema('the state the authorization URL carried'),
});
export type ShaamAuthBody = z.infer<typeof shaamAuthBodySchema>;

export const shaamAuthResponseSchema = z.object({ url: z.string() });
export type ShaamAuthResponse = z.infer<typeof shaamAuthResponseSchema>;
