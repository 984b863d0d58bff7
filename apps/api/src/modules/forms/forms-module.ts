import type { FastifyInstance } from 'fastify';
import { deriveKey, sealingKey, type DataKeys } from '../../platform/crypto.js';
import type { Database } from '../../platform/db/client.js';
import { registerIntegrationRoutes } from '../../platform/http/integration-routes.js';
import type { Messaging } from '../messaging/messaging.js';
import type { Webhooks } from '../webhooks/webhooks-service.js';
import { formsIntegrationRoutes } from './clinic-routes.js';
import { createFormRequests } from './form-requests.js';
import { createFormTemplates } from './form-templates.js';
import { createFormsRepository } from './forms-repository.js';
import { createFormsService, type FormsService } from './forms-service.js';
import { formsRoutes } from './patient-routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Intake-form links and submissions (the CLI and demo start-up mint links through it). */
    forms: FormsService;
  }
}

/**
 * Intake forms: the clinic's templates and form requests (after registerIntegration) and the
 * patient's form behind its link (`/api/get-form`, `/api/submit`, drafts).
 */
export async function registerForms(
  app: FastifyInstance,
  deps: {
    db: Database;
    clock: () => number;
    dataKeys: DataKeys;
    webhooks: Webhooks;
    messaging: Messaging;
    publicOrigin: string;
  },
): Promise<FormsService> {
  const { db, clock } = deps;
  const forms = createFormsService({
    repository: createFormsRepository(db),
    clock,
    formsKey: deriveKey(deps.dataKeys.current, 'forms'),
    sealKey: sealingKey(deps.dataKeys, 'forms'),
    publicOrigin: deps.publicOrigin,
    webhooks: deps.webhooks,
    log: app.log,
  });
  app.decorate('forms', forms);
  await registerIntegrationRoutes(app, formsIntegrationRoutes, {
    templates: createFormTemplates({ db, clock }),
    requests: createFormRequests({ db, forms, messaging: deps.messaging, clock }),
  });
  await app.register(formsRoutes, { prefix: '/api', service: forms });
  return forms;
}
