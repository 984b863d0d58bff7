import {
  errorBodySchema,
  loginBodySchema,
  logoutResponseSchema,
  patientSchema,
  signUpBodySchema,
  twoFactorBodySchema,
  twoFactorResponseSchema,
  twoFactorTokenResponseSchema,
} from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clientKey } from '../../platform/http/client-key.js';
import { sessionOf } from './authenticate.js';
import { toPatient, type PatientAuthService } from './patient-auth-service.js';

export interface PatientAuthRoutesOptions {
  service: PatientAuthService;
  /**
   * Calls of each route per client address per minute, in memory, on top of the database's send
   * limits: it slows down guessing which ID numbers are patients (404) and their phones (hint).
   */
  attemptsPerMinute?: number;
}

const errors = {
  400: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  429: errorBodySchema,
};

export const patientAuthRoutes: FastifyPluginAsyncZod<PatientAuthRoutesOptions> = async (
  app,
  { service, attemptsPerMinute = 60 },
) => {
  const attemptLimit = { max: attemptsPerMinute, timeWindow: '1 minute' };
  app.post(
    '/patient-auth/login',
    {
      config: { rateLimit: attemptLimit },
      schema: {
        tags: ['patient-auth'],
        summary:
          'Sends a one-time code to a known patient; 400 invalid_phone (with hint) when the phone differs, 404 patient_not_found, 429 too_many_requests when a code went to this phone in the last 60 s (or a send limit is reached), with details.retryAfterSeconds and Retry-After',
        body: loginBodySchema,
        response: { 200: twoFactorTokenResponseSchema, ...errors },
      },
    },
    async (request) => ({
      twoFactorToken: await service.login({
        ...request.body,
        clientAddress: clientKey(request.ip),
      }),
    }),
  );

  app.post(
    '/patient-auth/sign-up',
    {
      config: { rateLimit: attemptLimit },
      schema: {
        tags: ['patient-auth'],
        summary:
          'Sends a one-time code to a new patient; the patient is created on verification; 429 as login, with details.retryAfterSeconds and Retry-After',
        body: signUpBodySchema,
        response: { 200: twoFactorTokenResponseSchema, ...errors },
      },
    },
    async (request) => ({
      twoFactorToken: await service.signUp({
        ...request.body,
        clientAddress: clientKey(request.ip),
      }),
    }),
  );

  app.post(
    '/patient-auth/two-factor',
    {
      config: { rateLimit: attemptLimit },
      schema: {
        tags: ['patient-auth'],
        summary:
          'Verifies the code: the patient and a session token; 400 unknown/expired token, 404 wrong code, 429 too many',
        body: twoFactorBodySchema,
        response: { 200: twoFactorResponseSchema, ...errors },
      },
    },
    async (request) => service.verify(request.body),
  );

  app.get(
    '/patient-auth',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['patient-auth'],
        summary: 'The logged-in patient',
        response: { 200: patientSchema, 401: errorBodySchema },
      },
    },
    async (request) => toPatient(sessionOf(request).patient),
  );

  app.get(
    '/patient-auth/logout',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['patient-auth'],
        summary: 'Revokes the session',
        response: { 200: logoutResponseSchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      await service.logout(sessionOf(request).sessionId);
      return { status: 'ok' as const };
    },
  );
};
