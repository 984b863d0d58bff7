import type { FastifyInstance } from 'fastify';
import type { FormsService } from '../modules/forms/forms-service.js';
import type { DevMessageLog } from '../modules/messaging/log-sms-provider.js';
import type { PaymentsService } from '../modules/payments/payments-service.js';
import {
  createSandboxLedger,
  SANDBOX_API_PREFIX,
  sandboxApiRoutes,
} from '../modules/payments/sandbox-api.js';
import { sandboxRoutes } from '../modules/payments/sandbox-routes.js';
import type { GoogleStandIn } from '../modules/calendar-sync/providers/google/google-standin.js';
import type { GraphStandIn } from '../modules/calendar-sync/providers/microsoft/graph-standin.js';
import type { Database } from '../platform/db/client.js';
import { demoCalendarRoutes } from './demo-calendar.js';
import { DEMO_PROVIDER_CREDENTIALS } from './demo-payment.js';
import { devLinksRoutes, devRoutes } from './dev-routes.js';

/**
 * Demo mode only (buildApp calls it when `config.demo`; else these paths are 404): the messages
 * that were "sent", fresh demo links, the card sandbox (its page and its provider API), and the
 * stand-in calendars' events (Google's and Microsoft's).
 */
export async function registerDemo(
  app: FastifyInstance,
  deps: {
    publicOrigin: string;
    clock: () => number;
    devMessages: Pick<DevMessageLog, 'list'>;
    forms: Pick<FormsService, 'createLink' | 'findTemplateId'>;
    payments: Pick<PaymentsService, 'createLink'>;
    db: Database;
    /** The stand-in for Google's Calendar API, when no real service account is configured. */
    googleStandIn: GoogleStandIn | null;
    /** The stand-in for Microsoft Graph, when no Microsoft app is configured. */
    graphStandIn: GraphStandIn | null;
  },
): Promise<void> {
  const ledger = createSandboxLedger();
  await app.register(sandboxRoutes, { prefix: '/api', publicOrigin: deps.publicOrigin, ledger });
  await app.register(sandboxApiRoutes, {
    prefix: SANDBOX_API_PREFIX,
    ledger,
    credentials: DEMO_PROVIDER_CREDENTIALS,
    clock: deps.clock,
  });
  // Each behind the one guard of /api/dev/* (guardDevRoutes, app.ts).
  await app.register(devRoutes, { prefix: '/api', messages: deps.devMessages });
  await app.register(devLinksRoutes, {
    prefix: '/api',
    forms: deps.forms,
    payments: deps.payments,
  });
  if (deps.googleStandIn || deps.graphStandIn) {
    await app.register(demoCalendarRoutes, {
      prefix: '/api',
      google: deps.googleStandIn,
      graph: deps.graphStandIn,
      db: deps.db,
    });
  }
}
