import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

/** The card provider's payment frame. */
export const CARD_FRAME_ORIGIN = 'https://direct.tranzila.com';

// No 'unsafe-inline' scripts anywhere; styles allow it because MUI/emotion inject <style> tags.
// Routes needing more (the WhatsApp page and Meta's SDK) override per route with `helmet` config.
export const contentSecurityPolicyDirectives = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  frameSrc: ["'self'", CARD_FRAME_ORIGIN],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
} as const satisfies Record<string, readonly string[]>;

export async function registerSecurityHeaders(
  app: FastifyInstance,
  config: Pick<Config, 'isHttps'>,
): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      // Helmet's defaults add upgrade-insecure-requests, which breaks plain-http local runs.
      useDefaults: false,
      directives: Object.fromEntries(
        Object.entries(contentSecurityPolicyDirectives).map(([k, v]) => [k, [...v]]),
      ),
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: config.isHttps ? { maxAge: 31536000, includeSubDomains: true } : false,
    xFrameOptions: { action: 'deny' },
  });
}
