import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { getFormResponseSchema, paymentRequestDataSchema } from '@marpe/shared';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { registerDemo } from './demo/demo-module.js';
import { guardDevRoutes } from './demo/dev-routes.js';
import { registerAppointments } from './modules/appointments/appointments-module.js';
import {
  registerAvailability,
  registerBusyTimes,
} from './modules/availability/availability-module.js';
import { registerCalendarFeed } from './modules/calendar-feed/calendar-feed-module.js';
import { registerCalendarSync } from './modules/calendar-sync/calendar-sync-module.js';
import { registerClinics } from './modules/clinics/clinics-module.js';
import { registerForms } from './modules/forms/forms-module.js';
import { registerHealth } from './modules/health/health-module.js';
import { registerIntegration } from './modules/integration/integration-module.js';
import { setMessageCapCeilings } from './modules/integration/message-caps.js';
import { registerMessaging } from './modules/messaging/messaging.js';
import { registerMessagingRoutes } from './modules/messaging/clinic-routes.js';
import { registerPatientAuth } from './modules/patient-auth/patient-auth-module.js';
import { registerPaymentResultPage } from './modules/payments/patient-routes.js';
import { registerPayments } from './modules/payments/payments-module.js';
import { registerReminders } from './modules/reminders/reminders-module.js';
import { registerShaam } from './modules/shaam/shaam-module.js';
import { registerStaffAuth, registerStaffRoutes } from './modules/staff/staff-module.js';
import { registerWaitlist } from './modules/waitlist/waitlist-module.js';
import type { ResolveHost } from './modules/webhooks/webhook-request.js';
import { registerWebhooks } from './modules/webhooks/webhooks-module.js';
import { registerWhatsApp } from './modules/whatsapp/whatsapp-module.js';
import { registerWhatsAppPage } from './modules/whatsapp/whatsapp-routes.js';
import { defaultDeskDistDir, defaultWebDistDir } from './paths.js';
import type { Config } from './platform/config.js';
import { sealingKey, type DataKeys } from './platform/crypto.js';
import type { DatabaseHandle } from './platform/db/client.js';
import { sendNotFound } from './platform/http/error-handler.js';
import { registerHttpBasics } from './platform/http/http-basics.js';
import { loggerOptions, RequestLogController, type LogStream } from './platform/http/logger.js';
import { registerDeskApp } from './platform/http/desk-app.js';
import { registerWebApp } from './platform/http/web-app.js';
import { createMetrics, registerMetricsRoutes, type Metrics } from './platform/metrics.js';
import { createRetention, type Retention } from './platform/retention.js';
import type { Tracing } from './platform/telemetry.js';

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
  /** The built desk (/desk); defaults to apps/desk/dist, or none when `webDistDir` is null. */
  deskDistDir?: string | null;
  /** Epoch milliseconds now; tests pass a fixed one. Defaults to Date.now. */
  clock?: () => number;
  /** The per-address limit of each patient-auth route (default 60 a minute). */
  patientAuthAttemptsPerMinute?: number;
  /** How often the outbox worker looks for due messages; defaults to 1 s. */
  outboxPollIntervalMs?: number;
  /** How often the calendar-sync worker looks for due calendars; defaults to 15 s. */
  calendarSyncTickMs?: number;
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
  /** How often old rows are pruned (platform/retention.ts); null: never by itself (tests). */
  pruneIntervalMs?: number | null;
  /** OpenTelemetry, started by the caller (platform/telemetry.ts); none unless given. */
  tracing?: Pick<Tracing, 'plugin'> | null;
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
    /** Prometheus metrics; null unless METRICS_PORT or METRICS_TOKEN is set. */
    metrics: Metrics | null;
    /** Prunes rows past their retention (RETENTION_DAYS); hourly from `ready()`. */
    retention: Retention;
  }
}

/**
 * Builds the whole HTTP app without listening; tests add routes before `ready()` if they need to.
 * The modules register in dependency order: each takes what it needs from those above it
 * (docs/decisions/024-api-modules.md). Every outbox topic and worker is named before `ready()`.
 */
export async function buildApp(options: BuildAppOptions): Promise<App> {
  const { config, database } = options;
  const { db } = database;
  setMessageCapCeilings(config.messageCapCeilings);
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
  // First: its hooks must wrap every other plugin's and route's.
  if (options.tracing) await app.register(options.tracing.plugin);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('dataKey', options.dataKey);
  const dataKeys: DataKeys = { current: options.dataKey, previous: options.previousDataKeys ?? [] };
  app.decorate('dataKeys', dataKeys);
  const clock = options.clock ?? Date.now;
  const { publicOrigin } = config;

  // Before any route: the OpenAPI document lists only the routes registered after it. In demo
  // mode /api/dev/* answers only this machine, guarded before any check that would answer 403.
  await registerHttpBasics(app, {
    config,
    dataKey: options.dataKey,
    guard: config.demo ? guardDevRoutes : undefined,
  });
  const metrics =
    config.metrics.port !== null || config.metrics.token !== null
      ? createMetrics({ database, clock })
      : null;
  app.decorate('metrics', metrics);
  // With a port of its own, /metrics is there only (main.ts), never on the public port.
  if (metrics) {
    registerMetricsRoutes(app, metrics, {
      token: config.metrics.port === null ? config.metrics.token : null,
    });
  }
  await registerHealth(app, { database });
  const retention = createRetention({
    db,
    clock,
    log: app.log,
    days: config.retentionDays,
    deadDays: config.retentionDeadDays,
    intervalMs: options.pruneIntervalMs ?? undefined,
  });
  app.decorate('retention', retention);
  if (options.pruneIntervalMs !== null) app.addHook('onReady', async () => retention.start());
  app.addHook('onClose', async () => retention.stop());
  // The outbox's worker starts at `ready()`: the modules below name their topics before it.
  const { messaging, outbox, devMessages } = registerMessaging(app, {
    config,
    database,
    clock,
    pollIntervalMs: options.outboxPollIntervalMs,
    observeOutbox: metrics?.observeOutbox,
  });
  // The desk's staff sign-in: its sessions are the clinic API's second caller.
  const staff = await registerStaffAuth(app, {
    config,
    db,
    clock,
    dataKeys,
    messaging,
    publicOrigin,
    attemptsPerMinute: options.patientAuthAttemptsPerMinute,
  });
  // API keys and desk sessions: every module's /api/integration routes need them.
  await registerIntegration(app, {
    db,
    clock,
    staff: staff.callers,
    callsPerMinute: options.integrationCallsPerMinute,
  });
  await registerStaffRoutes(app, staff.members);
  await registerMessagingRoutes(app, db);
  const webhooks = await registerWebhooks(app, {
    db,
    clock,
    secretKey: sealingKey(dataKeys, 'webhooks'),
    publicOrigin,
    production: !config.demo,
    publicOnly: !config.demo,
    resolveHost: options.webhookResolveHost,
    timeoutMs: options.webhookTimeoutMs,
  });
  // The patient's session: the patient routes of the waitlist and appointments need it.
  await registerPatientAuth(app, {
    db,
    clock,
    dataKeys,
    messaging,
    publicOrigin,
    attemptsPerMinute: options.patientAuthAttemptsPerMinute,
  });
  const { availability, schedules } = await registerAvailability(app, { db, clock });
  const reminders = await registerReminders(app, {
    db,
    clock,
    messaging,
    webhooks,
    publicOrigin,
    log: app.log,
    pollIntervalMs: options.reminderPollIntervalMs,
  });
  // Before clinics and appointments: their writes offer the times they free to waiting patients.
  const waitlist = await registerWaitlist(app, {
    db,
    clock,
    availability,
    messaging,
    outbox,
    publicOrigin,
  });
  const { cache, clinics } = await registerClinics(app, {
    database,
    db,
    clock,
    availability,
    schedules,
    waitlist,
    reminders,
    calendarSyncAllowed: (clinicId) => {
      const allowed = config.calendar.serviceAccountClinics;
      return allowed === 'all' || allowed.includes(clinicId);
    },
  });
  await registerBusyTimes(app, { db, clock, waitlist, cache });
  const calendar = await registerCalendarSync(app, {
    config,
    db,
    clock,
    webhooks,
    outbox,
    cache,
    tickMs: options.calendarSyncTickMs,
  });
  await registerAppointments(app, {
    db,
    clock,
    availability,
    schedules,
    messaging,
    webhooks,
    reminders,
    waitlist,
    cache,
    calendar,
    publicOrigin,
  });
  await registerCalendarFeed(app, { db, clock, publicOrigin });
  const forms = await registerForms(app, {
    db,
    clock,
    dataKeys,
    webhooks,
    messaging,
    publicOrigin,
  });
  const payments = await registerPayments(app, {
    config,
    db,
    clock,
    dataKeys,
    webhooks,
    messaging,
    outbox,
  });
  const connectionDeps = { config, db, clock, dataKeys };
  await registerWhatsApp(app, connectionDeps);
  await registerShaam(app, connectionDeps);
  // Registered only in demo mode, so that outside it these paths are 404.
  if (config.demo) {
    await registerDemo(app, {
      publicOrigin,
      clock,
      devMessages,
      forms,
      payments,
      db,
      googleStandIn: app.googleStandIn,
      graphStandIn: app.graphStandIn,
    });
  }

  // Last: the web app answers the navigations no route took, and the pages below fall back to it.
  const navigationFallback = await registerWebApp(app, {
    webDistDir: options.webDistDir === undefined ? defaultWebDistDir : options.webDistDir,
    config,
    // As each link's API route answers it: its schema leaves out anything else the service holds.
    pageData: {
      clinic: (clinicId) => clinics.clinicDataJson(clinicId),
      paymentRequest: async (token) =>
        paymentRequestDataSchema.parse(await payments.getPaymentRequest(token)),
      paymentResult: async (token) =>
        paymentRequestDataSchema.parse(
          await payments.getPaymentRequest(token, { pinFrame: false }),
        ),
      intakeForm: async (token) => getFormResponseSchema.parse(await forms.getForm(token)),
    },
  });
  const deskFallback = await registerDeskApp(
    app,
    options.deskDistDir !== undefined
      ? options.deskDistDir
      : options.webDistDir === null
        ? null
        : defaultDeskDistDir,
  );
  registerPaymentResultPage(app, navigationFallback);
  registerWhatsAppPage(app, { sdkUrl: config.whatsapp.sdkUrl, navigationFallback });
  app.setNotFoundHandler((request, reply) => {
    if (deskFallback?.(request, reply)) return reply;
    if (navigationFallback?.(request, reply)) return reply;
    return sendNotFound(request, reply);
  });

  return app;
}
