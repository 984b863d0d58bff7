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

/** What the `req` serializer is given: a Fastify request (or, from elsewhere, a bare one). */
interface LoggedRequest {
  method: string;
  url: string;
  routeOptions?: { url?: string | undefined };
}

// A route's secret parts: a `:token` parameter (form, payment and card-provider links) and a
// wildcard tail (the WhatsApp connection page's `/whatsapp-signup/<token>`). Every wildcard counts:
// a route added later with a harmless tail loses detail in the logs, never leaks.
const secretRouteParam = /:token\b|\*/g;

// Pages the SPA answers through the not-found handler (no route of their own, so no pattern to go
// by) and API links asked for under a wrong method, name their token right after the prefix.
const tokenPrefix =
  /^\/+(q|p|tranzila|whatsapp-signup|api\/+notify-payment|api\/+payment-return)(?=\/|$)(\/+[^/]*)?/i;

// Any path under the iCalendar feed's prefix, its token and anything after it.
const feedPrefix = /^\/+api\/+calendar-feed(?:\/.*)?$/is;

/** The path percent-decoded (`/api/calendar%2Dfeed/…` is the feed too), or as it is if malformed. */
function decoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * A URL fit for logs: no query string (payment results, codes) and no link token. A request that
 * matched a route is written by its route when the route has a secret part (`/q/:token` →
 * `/q/[token]`), else by its path. A request that matched none is written by its path with any
 * link token removed: after a known prefix, and any segment that looks like a random token.
 */
export function loggableUrl(request: LoggedRequest): string {
  const route = request.routeOptions?.url;
  if (route !== undefined) {
    return route.search(secretRouteParam) === -1
      ? pathOf(request.url)
      : route.replace(secretRouteParam, '[token]');
  }
  // A feed's URL is its only key, and calendar apps vary it (case, a trailing `/`, a method):
  // whatever follows the prefix goes, however many segments.
  const path = pathOf(request.url);
  if (feedPrefix.test(path) || feedPrefix.test(decoded(path))) return '/api/calendar-feed/[token]';
  return path
    .replace(tokenPrefix, (_match, prefix: string, rest?: string) =>
      rest === undefined ? `/${prefix}` : `/${prefix}/[token]`,
    )
    .split('/')
    .map((segment) => (looksLikeToken(segment) ? '[token]' : segment))
    .join('/');
}

// A link page's address inside a text (an error naming the page it failed on): its token goes.
const tokenInText = /(\/(?:q|p|tranzila|whatsapp-signup)\/)[^\s/?#:'"`]+/gi;

/** A text with the token of every link page address it names replaced by `[token]`. */
function withoutLinkTokens(text: string): string {
  return text.replace(tokenInText, '$1[token]');
}

/** Random base64url (link tokens, API keys): 16 or more characters mixing letters and digits. */
function looksLikeToken(segment: string): boolean {
  return /^[\w-]{16,}$/.test(segment) && /\d/.test(segment) && /[a-z]/i.test(segment);
}

// A driver's error (pg's and PGlite's DatabaseError) quotes the data of the statement: `detail`
// ("Key (id_number)=(…) already exists"), `where` (parameter values), even `message` ("invalid
// input syntax for type integer: \"…\"") and so the stack's first line. PGlite's also carries the
// `query` and its `params`, and Drizzle's wrapper (DrizzleQueryError) quotes both in its message.
const DRIVER_IDENTIFIERS = ['constraint', 'table', 'column', 'dataType', 'routine'] as const;
const DATA_PROPERTIES = new Set([
  'query',
  'params',
  'detail',
  'where',
  'hint',
  'internalQuery',
  'queryOptions',
  'position',
  'internalPosition',
]);
const MAX_CAUSES = 5;

function sqlStateOf(error: Error): string | null {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && 'severity' in error
    ? code
    : null;
}

function carriesQuery(error: Error): boolean {
  return 'query' in error || 'params' in error;
}

/** The stack's frames without its first lines, which repeat the message. */
function framesOf(stack: string | undefined): string | undefined {
  return stack
    ?.split('\n')
    .filter((line) => /^\s+at /.test(line))
    .join('\n');
}

/**
 * The `err` serializer: like pino's, but a database error keeps only what names the failure
 * (SQLSTATE as `sqlState`, constraint, table, column, routine) and never the statement, its
 * parameters or the values the driver quotes; each cause is serialized the same way.
 */
export function loggableError(value: unknown, depth = 0): unknown {
  if (!(value instanceof Error)) return value;
  const sqlState = sqlStateOf(value);
  // PGlite's class name is minified: a driver error is named for what it is.
  const out: Record<string, unknown> = {
    type: sqlState === null ? value.constructor.name || value.name : 'DatabaseError',
  };
  if (sqlState !== null) {
    // No message nor stack: both quote values. `sqlState`, not `code`: `code` is redacted.
    out.message = `database error ${sqlState}`;
    out.sqlState = sqlState;
    for (const name of DRIVER_IDENTIFIERS) {
      const identifier = (value as unknown as Record<string, unknown>)[name];
      if (typeof identifier === 'string') out[name] = identifier;
    }
  } else if (carriesQuery(value)) {
    out.message = 'database query failed (statement and parameters not logged)';
    out.stack = framesOf(value.stack);
  } else {
    // The server renderer's errors name the page, and a form's or payment's address is its token.
    out.message = withoutLinkTokens(value.message);
    out.stack = value.stack === undefined ? undefined : withoutLinkTokens(value.stack);
    for (const [key, property] of Object.entries(value)) {
      if (key in out || key === 'cause' || DATA_PROPERTIES.has(key)) continue;
      out[key] =
        property instanceof Error
          ? loggableError(property, depth + 1)
          : Array.isArray(property)
            ? property.map((item) => loggableError(item, depth + 1))
            : property;
    }
  }
  if (value.cause !== undefined && depth < MAX_CAUSES) {
    out.cause = loggableError(value.cause, depth + 1);
  }
  return out;
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

  // Fastify's own lines for these put the raw URL or the error's message in `msg`, where no
  // serializer reaches: the URL may hold a link token, a database error's message patient data.

  override routeNotFound(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.info({ req: request }, 'route not found');
  }

  override defaultErrorLog(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (reply.statusCode >= 500) {
      reply.log.error({ req: request, res: reply, err: error }, 'request failed');
    } else {
      reply.log.info({ res: reply, err: error }, 'request refused');
    }
  }

  override writeHeadError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    reply.log.warn({ req: request, res: reply, err: error }, 'writing the response head failed');
  }

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

/** Where log lines go: `write` gets each JSON line. */
export interface LogStream {
  write(line: string): void;
}

/**
 * Fastify's `logger` option: JSON lines on standard output (or `stream`), batched per event-loop
 * turn. The request line comes from `RequestLogController` (`logController`).
 */
export function loggerOptions(
  config: Pick<Config, 'logLevel'>,
  stream: LogStream = stdoutDestination(),
): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level: config.logLevel,
    stream,
    redact: { paths: redactedPaths, censor: '[redacted]' },
    serializers: {
      // Method and URL only: no headers, no query string, no link token. (The request id is
      // every request line's `reqId`.)
      req: (req: LoggedRequest) => ({ method: req.method, url: loggableUrl(req) }),
      // Fastify's types want pino's shape; a non-error value passes through as with pino.
      err: (error: Error) =>
        loggableError(error) as { type: string; message: string; stack: string },
      error: loggableError,
    },
    hooks: {
      // `log.error(err)` makes the error's message the line's `msg`, out of the serializer's reach.
      logMethod(args, method) {
        const [first, second] = args as unknown[];
        if (first instanceof Error && typeof second !== 'string') {
          const { message } = loggableError(first) as { message: string };
          return method.apply(this, [first, message, ...args.slice(1)] as Parameters<
            typeof method
          >);
        }
        return method.apply(this, args);
      },
    },
  };
}
