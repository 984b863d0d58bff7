import { devMessagesSchema } from '@marpe/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
 * Headers that proxies, load balancers and CDNs add to say whom they forward for. Their mere
 * presence gives a forwarded request away, whatever their value and whatever TRUST_PROXY says.
 */
const PROXY_HEADERS = new Set([
  'forwarded',
  'x-real-ip',
  'via',
  'cf-connecting-ip',
  'cf-ray',
  'cdn-loop',
  'true-client-ip',
  'x-client-ip',
  'x-cluster-client-ip',
  'fastly-client-ip',
  'client-ip',
  'x-original-forwarded-for',
  'x-envoy-external-address',
  'x-original-host',
  'x-host',
]);

/** What the guard looks at: the raw socket's peer (never `request.ip`) and the headers. */
export interface ConnectionFacts {
  /** The TCP peer of the connection itself: TRUST_PROXY never rewrites it. */
  remoteAddress: string | undefined;
  headers: FastifyRequest['headers'];
}

/**
 * A request this machine made to itself, directly: the connection comes from a loopback address,
 * the `Host` is a loopback name, and no header a proxy sets is there. A reverse proxy on the same
 * host connects from loopback too, so the peer alone proves nothing; a proxy elsewhere fails the
 * peer check whatever headers it forwards. These routes hand out login codes and patients'
 * details: every check must pass.
 */
export function isFromThisMachine({ remoteAddress, headers }: ConnectionFacts): boolean {
  if (remoteAddress === undefined || !isLoopbackHost(remoteAddress.replace(/^::ffff:/i, ''))) {
    return false;
  }
  for (const name of Object.keys(headers)) {
    if (PROXY_HEADERS.has(name) || name.startsWith('x-forwarded-')) return false;
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

/** Where the demo's own routes live; nothing else is under it. */
export const DEV_ROUTE_PREFIX = '/api/dev/';

/**
 * The one guard of every `/api/dev/*` route: elsewhere they answer as if they did not exist, as
 * outside demo mode (404, never 403). Decided on the route that matched, never on the raw URL, so
 * every route under the prefix is covered wherever it is registered.
 */
async function onlyThisMachine(
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  if (!request.routeOptions.url?.startsWith(DEV_ROUTE_PREFIX)) return undefined;
  const facts = { remoteAddress: request.raw.socket.remoteAddress, headers: request.headers };
  if (!isFromThisMachine(facts)) return sendNotFound(request, reply);
  return undefined;
}

/**
 * Puts the guard in front of the checks of the app (registerHttpBasics, in demo mode): the
 * anti-forgery check, say, would otherwise answer a proxied POST with 403 and so tell that the
 * route is there.
 */
export function guardDevRoutes(app: FastifyInstance): void {
  app.addHook('onRequest', onlyThisMachine);
}

/**
 * Demo mode only: registered when `config.demo`, else these paths are 404; and behind
 * guardDevRoutes, else 404 too.
 */
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

/** Demo mode only and from this machine only, like devRoutes. */
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
