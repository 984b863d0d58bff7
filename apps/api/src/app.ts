import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { createAppointmentsRepository } from './modules/appointments/appointments-repository.js';
import { appointmentsRoutes } from './modules/appointments/appointments-routes.js';
import { createAppointmentsService } from './modules/appointments/appointments-service.js';
import { createAvailabilityRepository } from './modules/availability/availability-repository.js';
import { availabilityRoutes } from './modules/availability/availability-routes.js';
import { createAvailabilityService } from './modules/availability/availability-service.js';
import { registerClinicDataCache } from './modules/clinics/clinic-data-cache.js';
import { createClinicsRepository } from './modules/clinics/clinics-repository.js';
import { clinicsRoutes } from './modules/clinics/patient-routes.js';
import { createClinicsService } from './modules/clinics/clinics-service.js';
import { devLinksRoutes, devRoutes } from './demo/dev-routes.js';
import { createFormsRepository } from './modules/forms/forms-repository.js';
import { formsRoutes } from './modules/forms/patient-routes.js';
import { createFormsService, type FormsService } from './modules/forms/forms-service.js';
import { createApiKeys } from './modules/integration/api-keys.js';
import { apiKeysRoutes } from './modules/integration/api-keys-routes.js';
import { createClinicRepository } from './modules/clinics/setup-repository.js';
import { clinicRoutes } from './modules/clinics/clinic-routes.js';
import { createClinicService } from './modules/clinics/setup-service.js';
import { createFormRequests } from './modules/forms/form-requests.js';
import { formsIntegrationRoutes } from './modules/forms/clinic-routes.js';
import { createFormTemplates } from './modules/forms/form-templates.js';
import {
  registerIntegrationAuth,
  registerIntegrationRoutes,
} from './modules/integration/integration-auth.js';
import { createPaymentRequests } from './modules/payments/payment-requests.js';
import { paymentsIntegrationRoutes } from './modules/payments/clinic-routes.js';
import { healthRoutes } from './modules/health/health-routes.js';
import { registerMessaging } from './modules/messaging/messaging.js';
import { registerAuthenticate } from './modules/patient-auth/authenticate.js';
import { createPatientAuthRepository } from './modules/patient-auth/patient-auth-repository.js';
import { patientAuthRoutes } from './modules/patient-auth/patient-auth-routes.js';
import { createPatientAuthService } from './modules/patient-auth/patient-auth-service.js';
import { createPaymentsRepository } from './modules/payments/payments-repository.js';
import { paymentsRoutes, registerPaymentResultPage } from './modules/payments/patient-routes.js';
import {
  createPaymentsService,
  VERIFY_TOPIC,
  type PaymentsService,
} from './modules/payments/payments-service.js';
import { createTranzilaApi } from './modules/payments/tranzila-api.js';
import {
  createSandboxLedger,
  injectTransport,
  SANDBOX_API_PREFIX,
  sandboxApiRoutes,
} from './modules/payments/sandbox-api.js';
import { DEMO_PROVIDER_CREDENTIALS } from './demo/demo-payment.js';
import { sandboxRoutes } from './modules/payments/sandbox-routes.js';
import { createRemindersRepository } from './modules/reminders/reminders-repository.js';
import { remindersRoutes } from './modules/reminders/reminders-routes.js';
import { createReminders, type Reminders } from './modules/reminders/reminders-service.js';
import { registerShaam } from './modules/shaam/shaam-routes.js';
import { webhooksRoutes } from './modules/webhooks/webhooks-routes.js';
import type { ResolveHost } from './modules/webhooks/webhook-request.js';
import { registerWebhooks } from './modules/webhooks/webhooks-service.js';
import { createWaitlistRepository } from './modules/waitlist/waitlist-repository.js';
import { waitlistIntegrationRoutes } from './modules/waitlist/waitlist-integration-routes.js';
import { waitlistRoutes } from './modules/waitlist/waitlist-routes.js';
import {
  createWaitlistService,
  WAITLIST_OFFER_TOPIC,
} from './modules/waitlist/waitlist-service.js';
import { registerWhatsApp, registerWhatsAppPage } from './modules/whatsapp/whatsapp-routes.js';
import { defaultWebDistDir } from './paths.js';
import type { Config } from './platform/config.js';
import { deriveKey, sealingKey, type DataKeys } from './platform/crypto.js';
import type { DatabaseHandle } from './platform/db/client.js';
import { AppError } from './platform/errors.js';
import { registerErrorHandler, sendNotFound } from './platform/http/error-handler.js';
import { clientKey } from './platform/http/client-key.js';
import { registerJsonBodyParser } from './platform/http/json-body.js';
import { loggerOptions, RequestLogController, type LogStream } from './platform/http/logger.js';
import { registerSecurityHeaders } from './platform/http/security-headers.js';
import { registerWebApp } from './platform/http/web-app.js';
import { registerXsrf } from './platform/http/xsrf.js';

export interface BuildAppOptions {
  config: Config;
  /** Owned by the caller: the app never opens or closes it. */
  database: DatabaseHandle;
  /** The at-rest encryption key (see platform/crypto.ts); exposed as `app.dataKey`. */
  dataKey: Buffer;
  /** Keys `dataKey` replaced, still read (DATA_KEY_PREVIOUS); `app.dataKeys` holds both. */
  previousDataKeys?: readonly Buffer[];
  /** The built SPA; defaults to apps/web/dist. null serves the API only. */
  webDistDir?: string | null;
  /** Epoch milliseconds now; tests pass a fixed one. Defaults to Date.now. */
  clock?: () => number;
  /** The per-address limit of each patient-auth route (default 60 a minute). */
  patientAuthAttemptsPerMinute?: number;
  /** How often the outbox worker looks for due messages; defaults to 1 s. */
  outboxPollIntervalMs?: number;
  /** How often the reminders worker looks for due reminders; defaults to 30 s. */
  reminderPollIntervalMs?: number;
  /** How long a webhook endpoint has to answer; defaults to 10 s. */
  webhookTimeoutMs?: number;
  /** How webhook host names are resolved when connecting (default `dns.lookup`). */
  webhookResolveHost?: ResolveHost;
  /** Calls of one integration API key per minute (default 600). */
  integrationCallsPerMinute?: number;
  /** Where log lines go; defaults to standard output. Tests read what would be logged. */
  logStream?: LogStream;
}

export type App = FastifyInstance<
  Server,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The current data key and those it replaced: `sealingKey(app.dataKeys, purpose)`. */
    dataKeys: DataKeys;
    dataKey: Buffer;
    /** Intake-form links and submissions (the CLI and demo start-up mint links through it). */
    forms: FormsService;
    /** Payment links and the card provider's callbacks (the CLI and demo start-up mint links). */
    payments: PaymentsService;
    /** Appointment reminders: planned with bookings, sent by a worker from `ready` to `close`. */
    reminders: Reminders;
  }
}

/** Builds the whole HTTP app without listening; tests add routes before `ready()` if they need to. */
export async function buildApp(options: BuildAppOptions): Promise<App> {
  const { config, database } = options;
  const requestLog = new RequestLogController();
  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    logController: requestLog,
    // A hop count trusts that many proxies nearest to us (Fastify's types omit the number form).
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
  }).withTypeProvider<ZodTypeProvider>();
  requestLog.useLogger(app.log);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerJsonBodyParser(app);
  app.decorate('dataKey', options.dataKey);
  const dataKeys: DataKeys = { current: options.dataKey, previous: options.previousDataKeys ?? [] };
  app.decorate('dataKeys', dataKeys);

  await app.register(cookie);
  registerSecurityHeaders(app, config);
  // Limits are per route (`config: { rateLimit }`), never on static files.
  await app.register(rateLimit, {
    global: false,
    keyGenerator: (request) => clientKey(request.ip),
    errorResponseBuilder: (_request, context) =>
      new AppError(
        context.ban ? 'forbidden' : 'too_many_requests',
        context.statusCode,
        `Too many requests; retry in ${context.after}`,
      ),
  });
  registerXsrf(app, { config, dataKey: options.dataKey });

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Marpe API', version: '0.1.0' },
      servers: [{ url: config.publicOrigin }],
      components: {
        securitySchemes: {
          // The integration API (docs/integration.md): one key per clinic.
          apiKey: { type: 'http', scheme: 'bearer', description: 'A clinic API key (mrp_…)' },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  // Swagger UI loads only external scripts, so the global CSP (script-src 'self') fits it as is.
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { validatorUrl: null, deepLinking: true },
  });

  await app.register(healthRoutes, { prefix: '/api', database });
  const clock = options.clock ?? Date.now;
  const clinicDataCache = registerClinicDataCache(app, { database, clock });
  const availabilityRepository = createAvailabilityRepository(database.db);
  const availability = createAvailabilityService({ availability: availabilityRepository, clock });
  const clinics = createClinicsService({
    clinics: createClinicsRepository(database.db),
    schedules: availabilityRepository,
    availability,
    cache: clinicDataCache,
    clock,
  });
  await app.register(clinicsRoutes, { prefix: '/api', clinics });
  await app.register(availabilityRoutes, { prefix: '/api', availability });
  const { devMessages } = registerMessaging(app, {
    config,
    database,
    clock,
    pollIntervalMs: options.outboxPollIntervalMs,
  });
  const webhooks = registerWebhooks(app, {
    db: database.db,
    clock,
    secretKey: sealingKey(dataKeys, 'webhooks'),
    publicOrigin: config.publicOrigin,
    production: !config.demo,
    publicOnly: !config.demo,
    resolveHost: options.webhookResolveHost,
    timeoutMs: options.webhookTimeoutMs,
  });
  const patientAuth = createPatientAuthService({
    repository: createPatientAuthRepository(database.db),
    messaging: app.messaging,
    clock,
    codeKey: deriveKey(options.dataKey, 'otp'),
    host: new URL(config.publicOrigin).hostname,
  });
  registerAuthenticate(app, patientAuth);
  await app.register(patientAuthRoutes, {
    prefix: '/api',
    service: patientAuth,
    attemptsPerMinute: options.patientAuthAttemptsPerMinute,
  });
  const reminders = createReminders({
    repository: createRemindersRepository(database.db),
    messaging: app.messaging,
    webhooks,
    clock,
    publicOrigin: config.publicOrigin,
    log: app.log,
    pollIntervalMs: options.reminderPollIntervalMs,
  });
  app.decorate('reminders', reminders);
  app.addHook('onReady', async () => reminders.start());
  app.addHook('onClose', async () => reminders.stop());
  const appointmentsRepository = createAppointmentsRepository(database.db);
  const waitlist = createWaitlistService({
    repository: createWaitlistRepository(database.db),
    subjects: appointmentsRepository,
    availability,
    messaging: app.messaging,
    outbox: app.outbox,
    publicOrigin: config.publicOrigin,
    clock,
  });
  app.outbox.handle(WAITLIST_OFFER_TOPIC, (payload) => waitlist.handleOfferRun(payload));
  await app.register(waitlistRoutes, { prefix: '/api', service: waitlist });
  const appointments = createAppointmentsService({
    repository: appointmentsRepository,
    availability,
    messaging: app.messaging,
    webhooks,
    reminders,
    waitlist,
    cache: clinicDataCache,
    clock,
  });
  await app.register(appointmentsRoutes, { prefix: '/api', service: appointments });
  const forms = createFormsService({
    repository: createFormsRepository(database.db),
    clock,
    formsKey: deriveKey(options.dataKey, 'forms'),
    sealKey: sealingKey(dataKeys, 'forms'),
    publicOrigin: config.publicOrigin,
    webhooks,
  });
  app.decorate('forms', forms);
  const apiKeys = createApiKeys({ db: database.db, clock });
  registerIntegrationAuth(app, apiKeys, options.integrationCallsPerMinute);
  await registerIntegrationRoutes(app, apiKeysRoutes, { apiKeys });
  await registerIntegrationRoutes(app, clinicRoutes, {
    service: createClinicService({
      repository: createClinicRepository(database.db),
      appointments,
      waitlist,
      cache: clinicDataCache,
      clock,
    }),
  });
  await registerIntegrationRoutes(app, remindersRoutes, { reminders });
  await registerIntegrationRoutes(app, waitlistIntegrationRoutes, { service: waitlist });
  await registerIntegrationRoutes(app, webhooksRoutes, { service: webhooks });
  await registerIntegrationRoutes(app, formsIntegrationRoutes, {
    templates: createFormTemplates({ db: database.db, clock }),
    requests: createFormRequests({ db: database.db, forms, messaging: app.messaging, clock }),
  });
  const connectionDeps = { config, db: database.db, clock, dataKeys };
  await registerWhatsApp(app, connectionDeps);
  await registerShaam(app, connectionDeps);
  await app.register(formsRoutes, { prefix: '/api', service: forms });
  const payments = createPaymentsService({
    repository: createPaymentsRepository(database.db),
    clock,
    publicOrigin: config.publicOrigin,
    webhooks,
    provider: {
      api: createTranzilaApi(
        config.providerApiBaseUrl === null
          ? // Demo: the sandbox's provider API, over the same HTTP contract without the network.
            { baseUrl: SANDBOX_API_PREFIX, clock, transport: injectTransport(app) }
          : { baseUrl: config.providerApiBaseUrl, clock },
      ),
      sealKey: sealingKey(dataKeys, 'payments'),
      queueVerification: (ex, transactionId) =>
        app.outbox.enqueue(ex, { topic: VERIFY_TOPIC, payload: { transactionId } }),
    },
  });
  app.outbox.handle(VERIFY_TOPIC, async (payload) => {
    const { transactionId } = payload as { transactionId: number };
    await payments.verify(transactionId);
  });
  app.decorate('payments', payments);
  await app.register(paymentsRoutes, { prefix: '/api', service: payments });
  await registerIntegrationRoutes(app, paymentsIntegrationRoutes, {
    requests: createPaymentRequests({
      db: database.db,
      payments,
      messaging: app.messaging,
      clock,
    }),
  });
  if (config.demo) {
    await app.register(devRoutes, { prefix: '/api', messages: devMessages });
    await app.register(devLinksRoutes, { prefix: '/api', forms, payments });
    const ledger = createSandboxLedger();
    await app.register(sandboxRoutes, {
      prefix: '/api',
      publicOrigin: config.publicOrigin,
      ledger,
    });
    await app.register(sandboxApiRoutes, {
      prefix: SANDBOX_API_PREFIX,
      ledger,
      credentials: DEMO_PROVIDER_CREDENTIALS,
      clock,
    });
  }

  const navigationFallback = await registerWebApp(app, {
    webDistDir: options.webDistDir === undefined ? defaultWebDistDir : options.webDistDir,
    config,
    clinicDataJson: (clinicId) => clinics.clinicDataJson(clinicId),
  });
  registerPaymentResultPage(app, navigationFallback);
  registerWhatsAppPage(app, { sdkUrl: config.whatsapp.sdkUrl, navigationFallback });
  app.setNotFoundHandler((request, reply) => {
    if (navigationFallback?.(request, reply)) return reply;
    return sendNotFound(request, reply);
  });

  return app;
}
