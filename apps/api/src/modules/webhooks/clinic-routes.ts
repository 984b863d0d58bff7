import {
  createWebhookEndpointBodySchema,
  errorBodySchema,
  integrationIdParamsSchema,
  updateWebhookEndpointBodySchema,
  webhookDeliveriesQuerySchema,
  webhookDeliveriesSchema,
  webhookDeliverySchema,
  webhookEndpointSchema,
  webhookEndpointsSchema,
  webhookEndpointWithSecretSchema,
} from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf, clinicActorOf } from '../../platform/http/integration-routes.js';
import type { Webhooks } from './webhooks-service.js';

// A type, not an interface: registerIntegrationRoutes takes options as a Record.
export type WebhooksRoutesOptions = { service: Webhooks };

const tags = ['integration'];
const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

/** Registered with registerIntegrationRoutes: every route needs the clinic's API key. */
export const webhooksRoutes: FastifyPluginAsyncZod<WebhooksRoutesOptions> = async (
  app,
  { service },
) => {
  app.get(
    '/webhooks',
    {
      schema: {
        tags,
        summary: "The clinic's webhook endpoints (never their secrets)",
        response: { 200: webhookEndpointsSchema, 401: errorBodySchema },
      },
    },
    async (request) => service.listEndpoints(callerOf(request).clinicId),
  );

  app.post(
    '/webhooks',
    {
      schema: {
        tags,
        summary:
          'Adds an endpoint; the answer holds its signing secret, shown this once. 409 past 10 endpoints',
        body: createWebhookEndpointBodySchema,
        response: { 201: webhookEndpointWithSecretSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return service.createEndpoint(clinicActorOf(request), request.body);
    },
  );

  app.get(
    '/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'One endpoint (never its secret)',
        params: integrationIdParamsSchema,
        response: { 200: webhookEndpointSchema, ...errors },
      },
    },
    async (request) => service.getEndpoint(callerOf(request).clinicId, request.params.id),
  );

  app.patch(
    '/webhooks/:id',
    {
      schema: {
        tags,
        summary:
          'Changes the URL, the event types or is_active; rotate_secret: true answers a new secret, shown this once (the old one signs beside it for 24 hours)',
        params: integrationIdParamsSchema,
        body: updateWebhookEndpointBodySchema,
        response: { 200: webhookEndpointWithSecretSchema, ...errors },
      },
    },
    async (request) =>
      service.updateEndpoint(clinicActorOf(request), request.params.id, request.body),
  );

  app.delete(
    '/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'Deletes the endpoint and its delivery log; queued deliveries are dropped',
        params: integrationIdParamsSchema,
        response: { 204: z.null().describe('Deleted'), ...errors },
      },
    },
    async (request, reply) => {
      await service.deleteEndpoint(clinicActorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/webhook-deliveries',
    {
      schema: {
        tags,
        summary:
          'The delivery log, newest first (by id; `before` pages on): one row per event and endpoint',
        querystring: webhookDeliveriesQuerySchema,
        response: { 200: webhookDeliveriesSchema, ...errors },
      },
    },
    async (request) => service.listDeliveries(callerOf(request).clinicId, request.query),
  );

  app.post(
    '/webhook-deliveries/:id/retry',
    {
      schema: {
        tags,
        summary:
          'Sends a failed delivery again (the same body and event id, signed with the current secret): answers it pending. 409 (details.reason) unless it failed, while its endpoint is paused, or when its body was not kept',
        params: integrationIdParamsSchema,
        response: { 200: webhookDeliverySchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request) => service.retryDelivery(clinicActorOf(request), request.params.id),
  );
};
