import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';
import { pathOf } from './api-path.js';

// Intake-form and payment links carry their secret token in the path.
const tokenPath = /^\/(q|p)\/[^/]+/;

/** A URL fit for logs: no query string (payment results, codes) and no link tokens. */
export function loggableUrl(url: string): string {
  return pathOf(url).replace(tokenPath, '/$1/[token]');
}

export function loggerOptions(config: Pick<Config, 'logLevel'>): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        'headers.authorization',
        'headers.cookie',
        'headers["set-cookie"]',
        'token',
        '*.token',
        '*.*.token',
        'code',
        '*.code',
        '*.*.code',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({
        method: req.method,
        url: loggableUrl(req.url),
        id: req.id,
      }),
    },
  };
}
