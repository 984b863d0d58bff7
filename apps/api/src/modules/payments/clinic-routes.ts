import {
  createdPaymentRequestSchema,
  createPaymentRequestBodySchema,
  errorBodySchema,
  integrationIdParamsSchema,
  paymentRequestSchema,
  paymentRequestsQuerySchema,
  paymentRequestsSchema,
  paymentProviderBodySchema,
  paymentProviderSchema,
  paymentTransactionsSchema,
} from '@marpe/shared';
import { privateAnswer } from '../../platform/http/private-answer.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf, callerOf } from '../../platform/http/integration-routes.js';
import type { PaymentRequests } from './payment-requests.js';

export interface PaymentsIntegrationRoutesOptions {
  requests: PaymentRequests;
}

const tags = ['integration'];

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  // A desk session's call from another site, or a front-desk member on an owners' route.
  403: errorBodySchema,
  404: errorBodySchema,
};

/**
 * `/api/integration/payment-requests`: the payment links a clinic sends and the card provider's
 * callbacks on them (docs/integration.md, "Payment requests").
 */
export const paymentsIntegrationRoutes: FastifyPluginAsyncZod<
  PaymentsIntegrationRoutesOptions
> = async (app, { requests }) => {
  app.addHook('onRequest', privateAnswer);

  app.post(
    '/payment-requests',
    {
      schema: {
        tags,
        summary:
          'Makes a payment link (201; the url is in this answer only). With send_to_phone the link is also sent in the clinic’s name by its channel (SMS, or WhatsApp once connected), within the clinic’s message caps (429 when over)',
        body: createPaymentRequestBodySchema,
        response: { 201: createdPaymentRequestSchema, ...errors, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const created = await requests.create(caller.clinicId, request.body, actorOf(caller));
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/payment-requests',
    {
      schema: {
        tags,
        summary:
          'The clinic’s payment requests, newest first; `before` (a request id) pages on, `status` or `stage` filters (expired: pending past expires_at; failed: pending whose latest card attempt failed), `patient_id_number` keeps one patient’s',
        querystring: paymentRequestsQuerySchema,
        response: {
          200: paymentRequestsSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
        },
      },
    },
    async (request) => requests.list(callerOf(request).clinicId, request.query),
  );

  app.get(
    '/payment-requests/:id',
    {
      schema: {
        tags,
        summary: 'One payment request (never its link)',
        params: integrationIdParamsSchema,
        response: { 200: paymentRequestSchema, ...errors },
      },
    },
    async (request) => requests.get(callerOf(request).clinicId, request.params.id),
  );

  app.post(
    '/payment-requests/:id/cancel',
    {
      schema: {
        tags,
        summary:
          'Cancels a pending (or expired) request: its link then answers 404 and callbacks on it never pay. A cancelled one stays so; 409 when already paid',
        params: integrationIdParamsSchema,
        response: { 200: paymentRequestSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return requests.cancel(caller.clinicId, request.params.id, actorOf(caller));
    },
  );

  app.get(
    '/payment-requests/:id/transactions',
    {
      schema: {
        tags,
        summary:
          'The card provider’s callbacks on the request, oldest first: response code and its Hebrew description, whether it was accepted, the sum, the payments and the card’s last 4 digits',
        params: integrationIdParamsSchema,
        response: { 200: paymentTransactionsSchema, ...errors },
      },
    },
    async (request) => requests.transactions(callerOf(request).clinicId, request.params.id),
  );

  app.get(
    '/payment-provider',
    {
      // The card terminal's credentials: the clinic's owners only.
      config: { staffAccess: 'owner' },
      schema: {
        tags,
        summary:
          'Whether the clinic has set its card provider API credentials (the app key; never the secret)',
        response: { 200: paymentProviderSchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request) => requests.provider(callerOf(request).clinicId),
  );

  app.put(
    '/payment-provider',
    {
      // The card terminal's credentials: the clinic's owners only.
      config: { staffAccess: 'owner' },
      schema: {
        tags,
        summary:
          'Sets the card provider API credentials each charge is confirmed with (the secret is stored encrypted, write-only)',
        body: paymentProviderBodySchema,
        response: { 200: paymentProviderSchema, ...errors },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return requests.setProvider(caller.clinicId, request.body, actorOf(caller));
    },
  );

  app.delete(
    '/payment-provider',
    {
      // The card terminal's credentials: the clinic's owners only.
      config: { staffAccess: 'owner' },
      schema: {
        tags,
        summary: 'Removes the card provider API credentials: charges then stay unverified',
        response: { 200: paymentProviderSchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return requests.setProvider(caller.clinicId, null, actorOf(caller));
    },
  );
};
