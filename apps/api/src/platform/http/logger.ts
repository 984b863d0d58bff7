import {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import type { Config } from '../config.js';
import { pathOf } from './api-path.js';
import { stdoutDestination } from './log-destination.js';

// Intake-form and payment links carry their secret token in the path, and so do the payment
// result page and the card provider's callback and return addresses.
const tokenPath = /^\/(q|p|tranzila|api\/notify-payment|api\/payment-return)\/[^/]+/;

/** A URL fit for logs: no query string (payment results, codes) and no link tokens. */
export function loggableUrl(url: string): string {
  return pathOf(url).replace(tokenPath, '/$1/[token]');
}

/**
 * One log line per request, written when the answer is finished, with what Fastify's two lines
 * ("incoming request" + "request completed") said between them: request id, method, URL,
 * status and time. It is the most frequent line by far, so it is cheap:
 *
 * - it is written by one logger made once (`useLogger`), not through the per-request child;
 * - that logger skips redaction, which costs more than the rest of the line (the wildcard paths
 *   walk every value, the message included). Nothing in this line can hold a secret: it has the
 *   request id, the time, and what the `req` and `res` serializers keep (method, `loggableUrl`
 *   without query string or link token, status code). Every other line, this one's error
 *   variant included, is redacted as before.
 */
export class RequestLogController extends LogController {
  #accessLog: FastifyBaseLogger | null = null;

  /** The app's root logger; until it is given, the line goes through the request's logger. */
  useLogger(logger: FastifyBaseLogger): void {
    this.#accessLog = logger.child({}, { redact: [] });
  }

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    if (error) {
      reply.log.error(
        { req: request, res: reply, err: error, responseTime: reply.elapsedTime },
        'request errored',
      );
      return;
    }
    const responseTime = reply.elapsedTime;
    if (this.#accessLog) {
      // `reqId` is Fastify's default requestIdLogLabel, which the app keeps (a computed key
      // would cost a runtime call per line).
      this.#accessLog.info(
        { reqId: request.id, req: request, res: reply, responseTime },
        'request completed',
      );
    } else {
      // The request's own logger binds the request id already.
      reply.log.info({ req: request, res: reply, responseTime }, 'request completed');
    }
  }
}

/** Tokens, codes and cookies never reach the logs, whatever object carries them. */
export const redactedPaths = [
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
];

/**
 * Fastify's `logger` option: JSON lines on standard output, batched per event-loop turn. The
 * request line comes from `RequestLogController` (`logController`).
 */
export function loggerOptions(
  config: Pick<Config, 'logLevel'>,
): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level: config.logLevel,
    stream: stdoutDestination(),
    redact: { paths: redactedPaths, censor: '[redacted]' },
    serializers: {
      // Method and URL only: no headers, no query string, no link token. (The request id is
      // every request line's `reqId`.)
      req: (req: { method: string; url: string }) => ({
        method: req.method,
        url: loggableUrl(req.url),
      }),
    },
  };
}
