import cookie from '@fastify/cookie';
import { deskCookieName } from './desk-cookie.js';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { clientKey } from './client-key.js';
import { registerHtmlCompression } from './compress-html.js';
import { registerErrorHandler } from './error-handler.js';
import { registerJsonBodyParser } from './json-body.js';
import { registerSecurityHeaders } from './security-headers.js';
import { refuseLoneSurrogates } from './text-input.js';
import { registerXsrf } from './xsrf.js';

/**
 * What every route relies on, before any module registers one: errors and bodies, cookies,
 * security headers, compressed HTML, per-route rate limits, the XSRF check, and the OpenAPI document at /api/docs
 * (which only sees the routes registered after it).
 */
export async function registerHttpBasics(
  app: FastifyInstance,
  {
    config,
    dataKey,
    guard,
  }: {
    config: Config;
    dataKey: Buffer;
    /**
     * Hooks that turn requests away as if their route did not exist: after the cookies are read
     * (every answer's hooks need them), before any check that would answer otherwise (a 403).
     */
    guard?: (app: FastifyInstance) => void;
  },
): Promise<void> {
  registerErrorHandler(app);
  registerJsonBodyParser(app);
  refuseLoneSurrogates(app);
  await app.register(cookie);
  guard?.(app);
  registerSecurityHeaders(app, config);
  registerHtmlCompression(app);
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
  registerXsrf(app, { config, dataKey });

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Marpe API', version: '0.1.0' },
      servers: [{ url: config.publicOrigin }],
      components: {
        securitySchemes: {
          // The integration API (docs/integration.md): one key per clinic.
          apiKey: { type: 'http', scheme: 'bearer', description: 'A clinic API key (mrp_…)' },
          // The desk (docs/desk.md): a staff member's session, with X-XSRF-TOKEN on writes and
          // x-marpe-clinic naming the clinic when the account works at several.
          deskSession: {
            type: 'apiKey',
            in: 'cookie',
            name: deskCookieName(config),
            description: "A staff member's desk session (POST /api/staff-auth/two-factor)",
          },
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
}
