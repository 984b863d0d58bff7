import { devMessagesSchema } from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
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
