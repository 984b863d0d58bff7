import {
  errorBodySchema,
  shaamAuthBodySchema,
  shaamAuthResponseSchema,
  shaamConnectBodySchema,
  shaamConnectResponseSchema,
  shaamStatusSchema,
} from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf, callerOf } from '../../platform/http/integration-routes.js';
import type { ShaamService } from './shaam-service.js';

// A type, not an interface: registerIntegrationRoutes takes options as a Record.
export type ShaamIntegrationRoutesOptions = { service: ShaamService };

/** Registered with registerIntegrationRoutes: every route needs the clinic's API key. */
export const shaamIntegrationRoutes: FastifyPluginAsyncZod<ShaamIntegrationRoutesOptions> = async (
  app,
  { service },
) => {
  app.post(
    '/shaam/connect',
    {
      schema: {
        tags: ['integration'],
        summary:
          "Keeps the clinic's Tax Authority OAuth client and answers the authorization URL, whose state works once for 30 minutes",
        body: shaamConnectBodySchema,
        response: { 200: shaamConnectResponseSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return service.startConnection(caller.clinicId, actorOf(caller), request.body);
    },
  );

  app.get(
    '/shaam',
    {
      schema: {
        tags: ['integration'],
        summary: "The clinic's Tax Authority connection (no secret, no tokens)",
        response: { 200: shaamStatusSchema, 401: errorBodySchema },
      },
    },
    async (request) => service.status(callerOf(request).clinicId),
  );
};

export interface ShaamAuthRoutesOptions {
  service: ShaamService;
  /** Calls per client address per minute (default 20): each one may call the token endpoint. */
  attemptsPerMinute?: number;
}

/**
 * `POST /api/shaam-auth`: the callback page's call
 * (docs/product/connections.md#tax-authority-callback); XSRF-protected like any page call.
 */
export const shaamAuthRoutes: FastifyPluginAsyncZod<ShaamAuthRoutesOptions> = async (
  app,
  { service, attemptsPerMinute = 20 },
) => {
  app.post(
    '/shaam-auth',
    {
      config: { rateLimit: { max: attemptsPerMinute, timeWindow: '1 minute' } },
      schema: {
        tags: ['shaam'],
        summary:
          'Finishes a Tax Authority connection and answers where to send the browser: 400 when the state is unknown, used or expired; 502 when the Tax Authority refuses the code',
        body: shaamAuthBodySchema,
        response: {
          200: shaamAuthResponseSchema,
          400: errorBodySchema,
          403: errorBodySchema,
          429: errorBodySchema,
          502: errorBodySchema,
        },
      },
    },
    async (request) => service.completeAuthorization(request.body),
  );
};
