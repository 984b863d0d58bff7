import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors.js';
import type { PatientAuthService, PatientSession } from './patient-auth-service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook of every patient route: 401 unless the bearer token is a live session (checked before the body is even read). */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    /** Set by `app.authenticate`. */
    patientSession: PatientSession | null;
  }
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  return match?.[1] ?? null;
}

export function registerAuthenticate(
  app: FastifyInstance,
  service: Pick<PatientAuthService, 'authenticate'>,
): void {
  app.decorateRequest('patientSession', null);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const token = bearerToken(request);
    const session = token ? await service.authenticate(token) : null;
    if (!session) throw new AppError('unauthorized', 401, 'Log in to continue');
    request.patientSession = session;
  });
}

/** The session of a request that passed `app.authenticate`. */
export function sessionOf(request: FastifyRequest): PatientSession {
  if (!request.patientSession) throw new AppError('unauthorized', 401, 'Log in to continue');
  return request.patientSession;
}
