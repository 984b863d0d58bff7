import { z } from 'zod';
import {
  errorBodySchema,
  integrationIdParamsSchema,
  passkeySignInBodySchema,
  registerPasskeyBodySchema,
  staffInvitationViewSchema,
  staffPasskeySchema,
  staffSessionSchema,
  staffSignInBodySchema,
  staffTokenParamsSchema,
  staffTwoFactorBodySchema,
  twoFactorTokenResponseSchema,
  webAuthnOptionsSchema,
} from '@marpe/shared';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../platform/errors.js';
import { clientKey } from '../../platform/http/client-key.js';
import type { StaffAuthService, StaffSessionContext } from './staff-auth-service.js';
import type { StaffCookie } from '../../platform/http/desk-cookie.js';
import type { StaffPasskeys } from './staff-passkeys.js';

export interface StaffAuthRoutesOptions {
  service: StaffAuthService;
  passkeys: StaffPasskeys;
  cookie: StaffCookie;
  /** Calls of each sign-in route per client address per minute. */
  attemptsPerMinute?: number;
}

const tags = ['staff-auth'];
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  429: errorBodySchema,
};
const noContent = { 204: z.null().describe('Done') };

/**
 * `/api/staff-auth/*`: the desk's sign-in (SMS code or passkey), its session cookie, invitations
 * and the account's passkeys. Every state-changing call needs the anti-forgery token.
 */
export const staffAuthRoutes: FastifyPluginAsyncZod<StaffAuthRoutesOptions> = async (
  app,
  { service, passkeys, cookie, attemptsPerMinute = 60 },
) => {
  const attemptLimit = { max: attemptsPerMinute, timeWindow: '1 minute' };
  const sessions = new WeakMap<FastifyRequest, StaffSessionContext>();

  async function requireSession(request: FastifyRequest) {
    const token = cookie.read(request);
    const session = token ? await service.authenticate(token) : null;
    if (!session) throw new AppError('unauthorized', 401, 'Sign in to the desk to continue');
    sessions.set(request, session);
  }
  const sessionOf = (request: FastifyRequest): StaffSessionContext => {
    const session = sessions.get(request);
    if (!session) throw new AppError('unauthorized', 401, 'Sign in to the desk to continue');
    return session;
  };

  /** Sets the cookie of a new session and answers what the session is. */
  async function openSession(reply: FastifyReply, token: string) {
    const session = await service.authenticate(token);
    if (!session) throw new Error('the new session is not live');
    cookie.set(reply, token, service.rules.sessionAbsoluteMs);
    reply.header('cache-control', 'no-store');
    return service.describe(session);
  }

  app.post(
    '/staff-auth/sign-in',
    {
      config: { rateLimit: attemptLimit },
      schema: {
        tags,
        summary:
          "Sends a sign-in code to a staff member's phone. The answer is the same whether or not the phone is staff's (only a staff phone gets the SMS); 429 too_many_requests within 60 s of the last code or past a send limit, with details.retryAfterSeconds",
        body: staffSignInBodySchema,
        response: { 200: twoFactorTokenResponseSchema, ...errors },
      },
    },
    async (request) => ({
      twoFactorToken: await service.signIn({
        phone: request.body.phone,
        clientAddress: clientKey(request.ip),
      }),
    }),
  );

  app.post(
    '/staff-auth/two-factor',
    {
      config: { rateLimit: attemptLimit },
      schema: {
        tags,
        summary:
          "Verifies the code and opens a desk session (an httpOnly SameSite=Strict cookie); an invitation's code makes its holder a staff member first. 400 invalid_two_factor_token, 404 wrong_code, 429 too many",
        body: staffTwoFactorBodySchema,
        response: { 200: staffSessionSchema, ...errors },
      },
    },
    async (request, reply) => openSession(reply, await service.verify(request.body)),
  );

  app.get(
    '/staff-auth/invitations/:token',
    {
      config: { rateLimit: attemptLimit },
      schema: {
        tags,
        summary:
          'What an invitation link is for: the clinic, the role, the invited name and the last digits of the phone its code goes to; 404 invitation_not_found once used, cancelled or expired',
        params: staffTokenParamsSchema,
        response: { 200: staffInvitationViewSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.invitation(request.params.token);
    },
  );

  app.post(
    '/staff-auth/invitations/:token/code',
    {
      config: { rateLimit: attemptLimit },
      schema: {
        tags,
        summary:
          'Sends the code that accepts the invitation to the invited phone; answer it with POST /api/staff-auth/two-factor. 404 invitation_not_found, 429 as sign-in',
        params: staffTokenParamsSchema,
        response: { 200: twoFactorTokenResponseSchema, ...errors },
      },
    },
    async (request) => ({
      twoFactorToken: await service.invitationCode(request.params.token, clientKey(request.ip)),
    }),
  );

  app.get(
    '/staff-auth/session',
    {
      onRequest: requireSession,
      schema: {
        tags,
        summary: 'Who is signed in to the desk, at which clinics with which role, until when',
        response: { 200: staffSessionSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.describe(sessionOf(request));
    },
  );

  app.post(
    '/staff-auth/sign-out',
    {
      schema: {
        tags,
        summary: 'Ends this desk session (204), signed in or not',
        response: { ...noContent, ...errors },
      },
    },
    async (request, reply) => {
      const token = cookie.read(request);
      const session = token ? await service.authenticate(token) : null;
      if (session) await service.signOut(session.sessionId);
      cookie.clear(reply);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/staff-auth/sign-out-everywhere',
    {
      onRequest: requireSession,
      schema: {
        tags,
        summary:
          'Ends every desk session of the signed-in account, on every device, this one included (204); its passkeys stay. Audited',
        response: { ...noContent, ...errors },
      },
    },
    async (request, reply) => {
      await service.signOutEverywhere(sessionOf(request).accountId);
      cookie.clear(reply);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/staff-auth/passkeys',
    {
      onRequest: requireSession,
      schema: {
        tags,
        summary: "The signed-in account's passkeys (never their keys)",
        response: { 200: z.array(staffPasskeySchema), ...errors },
      },
    },
    async (request) => passkeys.list(sessionOf(request).accountId),
  );

  app.post(
    '/staff-auth/passkeys/registration-options',
    {
      onRequest: requireSession,
      schema: {
        tags,
        summary:
          'WebAuthn options to make a passkey for the signed-in account (navigator.credentials.create); valid 5 minutes, once',
        response: { 200: webAuthnOptionsSchema, ...errors },
      },
    },
    async (request) => passkeys.registrationOptions(sessionOf(request).accountId),
  );

  app.post(
    '/staff-auth/passkeys',
    {
      onRequest: requireSession,
      schema: {
        tags,
        summary:
          'Stores the passkey the browser made from the registration options (201); 400 passkey_failed when it does not verify. Audited',
        body: registerPasskeyBodySchema,
        response: { 201: staffPasskeySchema, ...errors },
      },
    },
    async (request, reply) => {
      const passkey = await passkeys.register(
        sessionOf(request).accountId,
        request.body.name,
        request.body.response as unknown as RegistrationResponseJSON,
      );
      return reply.status(201).send(passkey);
    },
  );

  app.delete(
    '/staff-auth/passkeys/:id',
    {
      onRequest: requireSession,
      schema: {
        tags,
        summary: "Removes one of the account's passkeys (204); 404 passkey_not_found. Audited",
        params: integrationIdParamsSchema,
        response: { ...noContent, ...errors },
      },
    },
    async (request, reply) => {
      await passkeys.remove(sessionOf(request).accountId, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/staff-auth/passkey-sign-in/options',
    {
      config: { rateLimit: attemptLimit },
      schema: {
        tags,
        summary:
          'WebAuthn options to sign in with any passkey of this site (navigator.credentials.get); valid 5 minutes, once',
        response: { 200: webAuthnOptionsSchema, ...errors },
      },
    },
    async () => passkeys.signInOptions(),
  );

  app.post(
    '/staff-auth/passkey-sign-in',
    {
      config: { rateLimit: attemptLimit },
      schema: {
        tags,
        summary:
          'Verifies a passkey and opens a desk session like the code does; 400 passkey_failed',
        body: passkeySignInBodySchema,
        response: { 200: staffSessionSchema, ...errors },
      },
    },
    async (request, reply) =>
      openSession(
        reply,
        await passkeys.signIn(request.body.response as unknown as AuthenticationResponseJSON),
      ),
  );
};
