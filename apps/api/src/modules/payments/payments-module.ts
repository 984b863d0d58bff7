import type { FastifyInstance } from 'fastify';
import type { Config } from '../../platform/config.js';
import { sealingKey, type DataKeys } from '../../platform/crypto.js';
import type { Database } from '../../platform/db/client.js';
import { registerIntegrationRoutes } from '../../platform/http/integration-routes.js';
import type { AppOutbox, Messaging } from '../messaging/messaging.js';
import type { Webhooks } from '../webhooks/webhooks-service.js';
import { paymentsIntegrationRoutes } from './clinic-routes.js';
import { createPaymentRequests } from './payment-requests.js';
import { createPaymentsRepository } from './payments-repository.js';
import { createPaymentsService, type PaymentsService } from './payments-service.js';
import { VERIFY_TOPIC } from './verify-payment.js';
import { paymentsRoutes } from './patient-routes.js';
import { injectTransport, SANDBOX_API_PREFIX } from './sandbox-api.js';
import { createTranzilaApi } from './tranzila-api.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Payment links and the card provider's callbacks (the CLI and demo start-up mint links). */
    payments: PaymentsService;
  }
}

/** Whether the card frame is the demo sandbox on our own origin rather than the provider's. */
function isSandboxFrame(
  config: Pick<Config, 'demo' | 'cardFrameBaseUrl' | 'publicOrigin'>,
): boolean {
  const base = new URL(config.cardFrameBaseUrl);
  return (
    config.demo &&
    base.origin === new URL(config.publicOrigin).origin &&
    base.pathname.startsWith('/api/sandbox')
  );
}

/**
 * Payments: the verification's outbox topic (so before `ready()`), the patient's payment page and
 * the provider's callbacks, and the clinic's payment requests (after registerIntegration). The
 * result page is registerPaymentResultPage, after the web app.
 */
export async function registerPayments(
  app: FastifyInstance,
  deps: {
    config: Pick<Config, 'demo' | 'providerApiBaseUrl' | 'publicOrigin' | 'cardFrameBaseUrl'>;
    db: Database;
    clock: () => number;
    dataKeys: DataKeys;
    webhooks: Webhooks;
    messaging: Messaging;
    outbox: AppOutbox;
  },
): Promise<PaymentsService> {
  const { config, db, clock, outbox } = deps;
  const payments = createPaymentsService({
    repository: createPaymentsRepository(db),
    clock,
    publicOrigin: config.publicOrigin,
    webhooks: deps.webhooks,
    cardProvider: isSandboxFrame(config) ? 'sandbox' : 'tranzila',
    requireProviderCredentials: !config.demo,
    provider: {
      api: createTranzilaApi(
        config.providerApiBaseUrl === null
          ? // Demo: the sandbox's provider API, over the same HTTP contract without the network.
            { baseUrl: SANDBOX_API_PREFIX, clock, transport: injectTransport(app) }
          : { baseUrl: config.providerApiBaseUrl, clock },
      ),
      sealKey: sealingKey(deps.dataKeys, 'payments'),
      queueVerification: (ex, transactionId) =>
        outbox.enqueue(ex, { topic: VERIFY_TOPIC, payload: { transactionId } }),
    },
  });
  outbox.handle(VERIFY_TOPIC, async (payload) => {
    const { transactionId } = payload as { transactionId: number };
    await payments.verify(transactionId);
  });
  app.decorate('payments', payments);
  await app.register(paymentsRoutes, { prefix: '/api', service: payments });
  await registerIntegrationRoutes(app, paymentsIntegrationRoutes, {
    requests: createPaymentRequests({ db, payments, messaging: deps.messaging, clock }),
  });
  return payments;
}
