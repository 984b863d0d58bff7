import { devMessagesSchema } from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createDemoFormLink, createDemoPaymentLink } from './demo-links.js';
import type { FormsService } from '../modules/forms/forms-service.js';
import type { DevMessageLog } from '../modules/messaging/log-sms-provider.js';
import type { PaymentsService } from '../modules/payments/payments-service.js';

export interface DevRoutesOptions {
  messages: Pick<DevMessageLog, 'list'>;
}

/** Demo mode only: registered when `config.demo`, else these paths are 404. */
export const devRoutes: FastifyPluginAsyncZod<DevRoutesOptions> = async (app, options) => {
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

/** Demo mode only, like devRoutes. */
export const devLinksRoutes: FastifyPluginAsyncZod<DevLinksRoutesOptions> = async (
  app,
  { forms, payments },
) => {
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
