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
import { clinicsRoutes } from './modules/clinics/clinics-routes.js';
import { createClinicsService } from './modules/clinics/clinics-service.js';
import { devLinksRoutes } from './modules/dev/dev-routes.js';
import { createFormsRepository } from './modules/forms/forms-repository.js';
import { formsRoutes } from './modules/forms/forms-routes.js';
import { createFormsService, type FormsService } from './modules/forms/forms-service.js';
import { createApiKeys } from './modules/integration/api-keys.js';
import { registerIntegrationAuth } from './modules/integration/integration-auth.js';
import { healthRoutes } from './modules/health/health-routes.js';
import { registerMessaging } from './modules/messaging/messaging.js';
import { registerAuthenticate } from './modules/patient-auth/authenticate.js';
import { createPatientAuthRepository } from './modules/patient-auth/patient-auth-repository.js';
import { patientAuthRoutes } from './modules/patient-auth/patient-auth-routes.js';
import { createPatientAuthService } from './modules/patient-auth/patient-auth-service.js';
import { defaultWebDistDir } from './paths.js';
import type { Config } from './platform/config.js';
import { deriveKey } from './platform/crypto.js';
import type { DatabaseHandle } from './platform/db/client.js';
import { AppError } from './platform/errors.js';
import { registerErrorHandler, sendNotFound } from './platform/http/error-handler.js';
import { loggerOptions, RequestLogController } from './platform/http/logger.js';
import { registerSecurityHeaders } from './platform/http/security-headers.js';
import { registerWebApp } from './platform/http/web-app.js';
import { registerXsrf } from './platform/http/xsrf.js';

export interface BuildAppOptions {
  config: Config;
  /** Owned by the caller: the app never opens or closes it. */
  database: DatabaseHandle;
  /** The at-rest encryption key (see platform/crypto.ts); exposed as `app.dataKey`. */
  dataKey: Buffer;
  /** The built SPA; defaults to apps/web/dist. null serves the API only. */
  webDistDir?: string | null;
  /** Epoch milliseconds now; tests pass a fixed one. Defaults to Date.now. */
  clock?: () => number;
  /** The per-address limit of each patient-auth route (default 60 a minute). */
  patientAuthAttemptsPerMinute?: number;
  /** How often the outbox worker looks for due messages; defaults to 1 s. */
  outboxPollIntervalMs?: number;
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
    dataKey: Buffer;
    /** Intake-form links and submissions (the CLI and demo start-up mint links through it). */
    forms: FormsService;
  }
}

/** Builds the whole HTTP app without listening; tests add routes before `ready()` if they need to. */
export async function buildApp(options: BuildAppOptions): Promise<App> {
  const { config, database } = options;
  const requestLog = new RequestLogController();
  const app = Fastify({
    logger: loggerOptions(config),
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
  app.decorate('dataKey', options.dataKey);

  await app.register(cookie);
  registerSecurityHeaders(app, config);
  // Limits are per route (`config: { rateLimit }`), never on static files.
  await app.register(rateLimit, {
    global: false,
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
  await app.register(clinicsRoutes, {
    prefix: '/api',
    clinics: createClinicsService({
      clinics: createClinicsRepository(database.db),
      schedules: availabilityRepository,
      availability,
      cache: clinicDataCache,
      clock,
    }),
  });
  await app.register(availabilityRoutes, { prefix: '/api', availability });
  await registerMessaging(app, {
    config,
    database,
    clock,
    pollIntervalMs: options.outboxPollIntervalMs,
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
  await app.register(appointmentsRoutes, {
    prefix: '/api',
    service: createAppointmentsService({
      repository: createAppointmentsRepository(database.db),
      availability,
      messaging: app.messaging,
      cache: clinicDataCache,
      clock,
    }),
  });
  const forms = createFormsService({
    repository: createFormsRepository(database.db),
    clock,
    formsKey: deriveKey(options.dataKey, 'forms'),
    publicOrigin: config.publicOrigin,
  });
  app.decorate('forms', forms);
  registerIntegrationAuth(app, createApiKeys({ db: database.db, clock }));
  await app.register(formsRoutes, { prefix: '/api', service: forms });
  if (config.demo) await app.register(devLinksRoutes, { prefix: '/api', forms });

  const navigationFallback = await registerWebApp(app, {
    webDistDir: options.webDistDir === undefined ? defaultWebDistDir : options.webDistDir,
    config,
  });
  app.setNotFoundHandler((request, reply) => {
    if (navigationFallback?.(request, reply)) return reply;
    return sendNotFound(request, reply);
  });

  return app;
}
