import {
  errorBodySchema,
  META_MESSAGE_ORIGINS,
  waSignupBodySchema,
  waSignupResponseSchema,
  whatsappConnectResponseSchema,
  whatsappStatusSchema,
} from '@marpe/shared';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendNotFound } from '../../platform/http/error-handler.js';
import type { CspDirectives } from '../../platform/http/security-headers.js';
import type { NavigationFallback } from '../../platform/http/web-app.js';
import { actorOf, callerOf } from '../../platform/http/integration-routes.js';
import type { WhatsAppService } from './whatsapp-service.js';

// A type, not an interface: registerIntegrationRoutes takes options as a Record.
export type WhatsAppIntegrationRoutesOptions = { service: WhatsAppService };

/** Registered with registerIntegrationRoutes: every route needs the clinic's API key. */
export const whatsappIntegrationRoutes: FastifyPluginAsyncZod<
  WhatsAppIntegrationRoutesOptions
> = async (app, { service }) => {
  app.post(
    '/whatsapp/connect',
    {
      schema: {
        tags: ['integration'],
        summary:
          'A single-use link (24 hours) to the WhatsApp connection page; 503 when the server has no Meta app',
        response: {
          200: whatsappConnectResponseSchema,
          401: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return service.startConnection(caller.clinicId, actorOf(caller));
    },
  );

  app.get(
    '/whatsapp',
    {
      schema: {
        tags: ['integration'],
        summary: "The clinic's WhatsApp connection (never its token)",
        response: { 200: whatsappStatusSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => service.status(callerOf(request).clinicId),
  );

  app.delete(
    '/whatsapp',
    {
      schema: {
        tags: ['integration'],
        summary: 'Disconnects WhatsApp: messages go by SMS again. 404 when not connected',
        response: {
          204: z.null().describe('Disconnected'),
          401: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      await service.disconnect(caller.clinicId, actorOf(caller));
      return reply.code(204).send(null);
    },
  );
};

export interface WaSignupRoutesOptions {
  service: WhatsAppService;
  /** Calls per client address per minute (default 20): each one may call the Graph API. */
  attemptsPerMinute?: number;
}

/**
 * `POST /api/wa-signup`: the connection page's call (docs/product/connections.md#whatsapp-sign-up);
 * XSRF-protected like any page call.
 */
export const waSignupRoutes: FastifyPluginAsyncZod<WaSignupRoutesOptions> = async (
  app,
  { service, attemptsPerMinute = 20 },
) => {
  app.post(
    '/wa-signup',
    {
      config: { rateLimit: { max: attemptsPerMinute, timeWindow: '1 minute' } },
      schema: {
        tags: ['whatsapp'],
        summary:
          'Finishes a WhatsApp connection: 400 when the link is unknown, used or expired; 502 when Meta refuses the code',
        body: waSignupBodySchema,
        response: {
          200: waSignupResponseSchema,
          400: errorBodySchema,
          403: errorBodySchema,
          429: errorBodySchema,
          502: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (request) => {
      await service.completeSignup(request.body);
      return { status: 'ok' as const };
    },
  );
};

/**
 * The connection page's policy: Meta's SDK in script-src, and Meta's login and sign-up frames
 * and calls. Only this page gets it; every other page keeps script-src 'self'.
 */
export function whatsappPagePolicy(sdkUrl: string): CspDirectives {
  const meta = [...META_MESSAGE_ORIGINS, 'https://staticxx.facebook.com'];
  return {
    scriptSrc: ["'self'", new URL(sdkUrl).origin],
    frameSrc: ["'self'", ...meta],
    connectSrc: ["'self'", 'https://graph.facebook.com', ...META_MESSAGE_ORIGINS],
    imgSrc: ["'self'", 'data:', 'blob:', 'https://www.facebook.com'],
  };
}

/**
 * `/whatsapp-signup/:clientId?`: the SPA page under its own CSP. FB.login opens Meta's dialog in
 * a popup that posts back to this window, which COOP `same-origin` would cut off.
 */
export function registerWhatsAppPage(
  app: FastifyInstance,
  options: { sdkUrl: string; navigationFallback: NavigationFallback | null },
): void {
  const { navigationFallback } = options;
  for (const url of ['/whatsapp-signup', '/whatsapp-signup/*']) {
    app.get(
      url,
      {
        schema: { hide: true },
        config: { contentSecurityPolicy: whatsappPagePolicy(options.sdkUrl) },
      },
      (request, reply) => {
        reply.header('cross-origin-opener-policy', 'same-origin-allow-popups');
        if (navigationFallback?.(request, reply)) return reply;
        return sendNotFound(request, reply);
      },
    );
  }
}
