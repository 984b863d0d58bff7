import { devMessagesSchema } from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createDemoFormLink } from '../../demo/demo-links.js';
import type { FormsService } from '../forms/forms-service.js';
import type { DevMessageLog } from '../messaging/log-sms-provider.js';

export interface DevRoutesOptions {
  messages: Pick<DevMessageLog, 'list'>;
}

/** Demo mode only: registered when `config.demo` (never in production), else these paths are 404. */
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

/** `POST /api/dev/demo-links`: fresh links to try; paymentUrl arrives with payment requests. */
export const devLinksResponseSchema = z.object({
  formUrl: z.string(),
  paymentUrl: z.string().optional(),
});

export interface DevLinksRoutesOptions {
  forms: Pick<FormsService, 'createLink' | 'findTemplateId'>;
}

/** Demo mode only, like devRoutes. */
export const devLinksRoutes: FastifyPluginAsyncZod<DevLinksRoutesOptions> = async (
  app,
  { forms },
) => {
  app.post(
    '/dev/demo-links',
    {
      schema: {
        tags: ['dev'],
        summary: "Demo mode only: a freshly minted link to the demo clinic's intake form",
        response: { 200: devLinksResponseSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      reply.header('referrer-policy', 'no-referrer');
      const form = await createDemoFormLink(forms);
      return { formUrl: form.url };
    },
  );
};
