import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Database } from '../../platform/db/client.js';
import { registerIntegrationRoutes } from '../../platform/http/integration-routes.js';
import type { Messaging } from '../messaging/messaging.js';
import type { Webhooks } from '../webhooks/webhooks-service.js';
import { remindersRoutes } from './clinic-routes.js';
import { createRemindersRepository } from './reminders-repository.js';
import { createReminders, type Reminders } from './reminders-service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Appointment reminders: planned with bookings, sent by a worker from `ready` to `close`. */
    reminders: Reminders;
  }
}

/** Appointment reminders: `app.reminders`, its worker, and the clinic's reminder settings. */
export async function registerReminders(
  app: FastifyInstance,
  deps: {
    db: Database;
    clock: () => number;
    messaging: Messaging;
    webhooks: Webhooks;
    publicOrigin: string;
    log: FastifyBaseLogger;
    /** How often due reminders are looked for (default 30 s). */
    pollIntervalMs?: number;
  },
): Promise<Reminders> {
  const reminders = createReminders({
    repository: createRemindersRepository(deps.db),
    messaging: deps.messaging,
    webhooks: deps.webhooks,
    clock: deps.clock,
    publicOrigin: deps.publicOrigin,
    log: deps.log,
    pollIntervalMs: deps.pollIntervalMs,
  });
  app.decorate('reminders', reminders);
  app.addHook('onReady', async () => reminders.start());
  app.addHook('onClose', async () => reminders.stop());
  await registerIntegrationRoutes(app, remindersRoutes, { reminders }, 'owner-writes');
  return reminders;
}
