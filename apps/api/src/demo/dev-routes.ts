import { devMessagesSchema } from '@marpe/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isLoopbackHost } from '../platform/config.js';
import { sendNotFound } from '../platform/http/error-handler.js';
import { createDemoFormLink, createDemoPaymentLink } from './demo-links.js';
import type { FormsService } from '../modules/forms/forms-service.js';
import type { DevMessageLog } from '../modules/messaging/log-sms-provider.js';
import type { PaymentsService } from '../modules/payments/payments-service.js';

export interface DevRoutesOptions {
  messages: Pick<DevMessageLog, 'list'>;
}

/**
 * A request this machine made to itself: a loopback `Host` and no proxy header. A reverse proxy on
 * the same host connects from loopback too, so the peer address proves nothing; the headers a
 * proxy sets (or the public name it forwards) are what give it away. Any `X-Forwarded-*` or
 * `Forwarded` header counts, whatever TRUST_PROXY says: these routes hand out login codes.
 */
export function isFromThisMachine(headers: FastifyRequest['headers']): boolean {
  for (const name of Object.keys(headers)) {
    if (name === 'forwarded' || name.startsWith('x-forwarded-')) return false;
  }
  const host = headers.host;
  if (typeof host !== 'string' || host === '') return false;
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname;
  } catch {
    return false;
  }
  return isLoopbackHost(hostname);
}

/** Elsewhere the dev routes answer as if they did not exist, as outside demo mode. */
async function onlyThisMachine(
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  if (!isFromThisMachine(request.headers)) return sendNotFound(request, reply);
  return undefined;
}

/**
 * Demo mode only: registered when `config.demo`, else these paths are 404; and only for requests
 * from this machine (isFromThisMachine), else 404 too.
 */
export const devRoutes: FastifyPluginAsyncZod<DevRoutesOptions> = async (app, options) => {
  app.addHook('onRequest', onlyThisMachine);
  app.get(
    '/dev/messages',
    {
      schema: {
        tags: ['dev'],
        summary:
          'Demo mode only: the messages the log provider "sent" (one-time codes included), newest first',
        response: { 200: devMessagesSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return options.messages.list();
    },
  );
};

/** `POST /api/dev/demo-links`: fresh links to try (an intake form, a payment request). */
export const devLinksResponseSchema = z.object({
  formUrl: z.string(),
  paymentUrl: z.string(),
});

export interface DevLinksRoutesOptions {
  forms: Pick<FormsService, 'createLink' | 'findTemplateId'>;
  payments: Pick<PaymentsService, 'createLink'>;
}

/** Demo mode only and from this machine only, like devRoutes. */
export const devLinksRoutes: FastifyPluginAsyncZod<DevLinksRoutesOptions> = async (
  app,
  { forms, payments },
) => {
  app.addHook('onRequest', onlyThisMachine);
  app.post(
    '/dev/demo-links',
    {
      schema: {
        tags: ['dev'],
        summary:
          "Demo mode only: freshly minted links to the demo clinic's intake form and to a payment request (₪1,250.50, up to 3 payments)",
        response: { 200: devLinksResponseSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      reply.header('referrer-policy', 'no-referrer');
      const form = await createDemoFormLink(forms);
      const payment = await createDemoPaymentLink(payments);
      return { formUrl: form.url, paymentUrl: payment.url };
    },
  );
};
