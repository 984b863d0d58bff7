import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody, ErrorCode, ValidationIssue } from '@marpe/shared';
import { AppError } from '../errors.js';
import { pathOf } from './api-path.js';

interface ErrorReply {
  status: number;
  body: ErrorBody;
}

const internalError: ErrorReply = {
  status: 500,
  body: { code: 'internal_error', message: 'Internal server error' },
};

const codeByStatus: Partial<Record<number, ErrorCode>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'bad_request',
  429: 'too_many_requests',
};

/**
 * What a database refusal means for the caller. Routes validate first and name the field; these
 * are the last line, so a value that slipped past validation is still a 4xx, never a 500.
 */
const conflict = (message: string): ErrorReply => ({
  status: 409,
  body: { code: 'conflict', message },
});
const badRequest = (message: string): ErrorReply => ({
  status: 400,
  body: { code: 'bad_request', message },
});
const duplicate = conflict('The change conflicts with existing data');
const unstorableText = badRequest(
  'Text contains a character that cannot be stored (such as U+0000)',
);

const sqlStateReplies: Readonly<Record<string, ErrorReply>> = {
  // unique_violation, exclusion_violation: a double booking or a duplicate.
  '23505': duplicate,
  '23P01': duplicate,
  // foreign_key_violation: what it refers to was removed meanwhile.
  '23503': conflict('The change refers to data that no longer exists'),
  // check_violation: a value outside the rules of the data.
  '23514': badRequest('A value is outside the allowed range'),
  // character_not_in_repertoire, untranslatable_character: text with U+0000 or broken encoding.
  '22021': unstorableText,
  '22P05': unstorableText,
};

/** The one place that turns any thrown value into `{ code, message, details? }`. */
export function toErrorReply(error: unknown): ErrorReply {
  if (error instanceof AppError) {
    const body: ErrorBody = { code: error.code, message: error.message };
    if (error.details !== undefined) body.details = error.details;
    if (error.hint !== undefined) body.hint = error.hint;
    return { status: error.status, body };
  }
  if (!(error instanceof Error)) return internalError;

  const fastifyError = error as Partial<FastifyError>;
  if (Array.isArray(fastifyError.validation)) {
    const issues = fastifyError.validation.map((v): ValidationIssue => {
      let path = v.instancePath.split('/').filter(Boolean).join('.');
      const missing = v.params?.missingProperty;
      if (typeof missing === 'string') path = path ? `${path}.${missing}` : missing;
      return { path: path || (fastifyError.validationContext ?? ''), message: v.message ?? '' };
    });
    const fields = [...new Set(issues.map((i) => i.path))].join(', ');
    return {
      status: 400,
      body: {
        code: 'validation_failed',
        message: `Invalid request: ${fields}`,
        details: { issues },
      },
    };
  }

  const refusal = databaseRefusal(error);
  if (refusal) return refusal;

  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // An unsupported content type is a malformed request like bad JSON.
    const replyStatus = status === 415 ? 400 : status;
    return {
      status: replyStatus,
      body: { code: codeByStatus[replyStatus] ?? 'bad_request', message: error.message },
    };
  }
  return internalError;
}

/** Drizzle wraps driver errors; the SQLSTATE sits on the error or its cause. */
function databaseRefusal(error: Error): ErrorReply | null {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && Object.hasOwn(sqlStateReplies, code)) {
      return sqlStateReplies[code] ?? null;
    }
  }
  return null;
}

export function sendNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.status(404).send({
    code: 'not_found',
    message: `Route ${request.method} ${pathOf(request.url)} not found`,
  } satisfies ErrorBody);
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const { status, body } = toErrorReply(error);
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
    } else if (error instanceof Error && databaseRefusal(error) !== null) {
      request.log.info({ err: error }, 'database refused the change');
    }
    // `retry_after` in the integration API's snake_case (its message caps).
    const details = body.details as
      { retryAfterSeconds?: unknown; retry_after?: unknown } | undefined;
    const retryAfter = details?.retryAfterSeconds ?? details?.retry_after;
    if (status === 429 && typeof retryAfter === 'number') reply.header('retry-after', retryAfter);
    return reply.status(status).send(body);
  });
}
