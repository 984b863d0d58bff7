import {
  errorBodySchema,
  getPaymentRequestBodySchema,
  getPaymentRequestResponseSchema,
  paymentResultPath,
} from '@marpe/shared';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendNotFound } from '../../platform/http/error-handler.js';
import { linkRouteLimit, privateAnswer } from '../../platform/http/private-answer.js';
import { framableBySelf } from '../../platform/http/security-headers.js';
import type { NavigationFallback } from '../../platform/http/web-app.js';
import type { PaymentsService } from './payments-service.js';
import { providerFieldsOf, resultsQueryOf } from './provider-fields.js';

export interface PaymentsRoutesOptions {
  service: PaymentsService;
}

/** The provider's notify and return bodies are small; a few KiB is plenty. */
export const PROVIDER_BODY_LIMIT = 64 * 1024;

/**
 * The card provider's callbacks per sending address per minute: its servers post for every
 * clinic's payments, so far more than a patient's link routes allow.
 */
const providerCallbackLimit = { max: 600, timeWindow: '1 minute' } as const;

/**
 * Parses `application/x-www-form-urlencoded` bodies (what the card provider posts) in this
 * plugin only, with node's URLSearchParams: a repeated key keeps its last value.
 */
export function acceptFormBodies(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: PROVIDER_BODY_LIMIT },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
}

const tokenParamsSchema = z.object({ token: z.string().min(1).max(200) });
/** Provider fields, form-encoded or JSON; checked by the service, which names a missing one. */
const providerBodySchema = z.record(z.string(), z.unknown()).optional();
const providerQuerySchema = z.record(z.string(), z.unknown());
const notifyResponseSchema = z.object({ status: z.literal('ok') });

function redirectToResult(reply: FastifyReply, token: string, input: unknown): void {
  const results = resultsQueryOf(providerFieldsOf(input));
  void reply
    .status(303)
    .header('location', `${paymentResultPath(token)}?results=${encodeURIComponent(results)}`)
    .send();
}

/**
 * get-payment-request (docs/product/payments.md#calls), and the card provider's notify and return
 * addresses.
 */
export const paymentsRoutes: FastifyPluginAsyncZod<PaymentsRoutesOptions> = async (
  app,
  { service },
) => {
  app.post(
    '/get-payment-request',
    {
      onRequest: privateAnswer,
      config: { rateLimit: linkRouteLimit },
      schema: {
        tags: ['payments'],
        summary:
          "The payment request of a link token (status 'paid' once paid); 404 when the link is unknown, expired or cancelled",
        body: getPaymentRequestBodySchema,
        response: {
          200: getPaymentRequestResponseSchema,
          400: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request) => ({ data: await service.getPaymentRequest(request.body.token) }),
  );

  // The provider's own calls: form-encoded, cross-site, unsigned (docs/decisions/008).
  await app.register(async (provider) => {
    acceptFormBodies(provider);
    const typed = provider.withTypeProvider<ZodTypeProvider>();

    typed.post(
      '/notify-payment/:token',
      {
        onRequest: privateAnswer,
        bodyLimit: PROVIDER_BODY_LIMIT,
        config: { xsrf: false, rateLimit: providerCallbackLimit },
        schema: {
          tags: ['payments'],
          summary:
            "The card provider's server-to-server callback (form-encoded or JSON, exempt from XSRF): recorded once per provider index; an accepted Response=000 pays the request",
          params: tokenParamsSchema,
          body: providerBodySchema,
          response: { 200: notifyResponseSchema, 400: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request) => {
        await service.recordCallback(request.params.token, request.body);
        return { status: 'ok' as const };
      },
    );

    const returnSchema = {
      tags: ['payments'],
      params: tokenParamsSchema,
      response: { 400: errorBodySchema },
    };
    typed.get(
      '/payment-return/:token',
      {
        onRequest: privateAnswer,
        config: { contentSecurityPolicy: framableBySelf, rateLimit: linkRouteLimit },
        schema: {
          ...returnSchema,
          summary:
            'Where the card provider returns the browser (GET): 303 to /tranzila/:token?results=… without card data',
          querystring: providerQuerySchema,
        },
      },
      (request, reply) => {
        redirectToResult(reply, request.params.token, request.query);
      },
    );
    typed.post(
      '/payment-return/:token',
      {
        onRequest: privateAnswer,
        bodyLimit: PROVIDER_BODY_LIMIT,
        // It changes nothing and only redirects; the provider posts it from its own site.
        config: { xsrf: false, contentSecurityPolicy: framableBySelf, rateLimit: linkRouteLimit },
        schema: {
          ...returnSchema,
          summary:
            'Where the card provider returns the browser (POST, form-encoded): 303 to /tranzila/:token?results=… without card data',
          body: providerBodySchema,
        },
      },
      (request, reply) => {
        redirectToResult(reply, request.params.token, request.body);
      },
    );
  });
};

/**
 * The SPA's payment result route (`/tranzila/:token`, docs/product/payments.md#result). The
 * provider's frame is sent there (through /api/payment-return), so unlike every other page our own
 * page may frame it. Answered by the navigation fallback, which renders it with the link's request
 * (ADR 025): privately, and limited like the link's API route.
 */
export function registerPaymentResultPage(
  app: FastifyInstance,
  navigationFallback: NavigationFallback | null,
): void {
  app.get(
    '/tranzila/:token',
    {
      schema: { hide: true },
      onRequest: (_request, reply, done) => {
        reply.header('referrer-policy', 'no-referrer');
        done();
      },
      config: { contentSecurityPolicy: framableBySelf, rateLimit: linkRouteLimit },
    },
    (request, reply) => {
      if (navigationFallback?.(request, reply)) return reply;
      return sendNotFound(request, reply);
    },
  );
}
