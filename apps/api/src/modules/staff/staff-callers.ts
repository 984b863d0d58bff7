import { STAFF_CLINIC_HEADER, type StaffRole } from '@marpe/shared';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors.js';
import type { StaffAuthService } from './staff-auth-service.js';
import type { StaffCookie } from '../../platform/http/desk-cookie.js';
import type { StaffRepository } from './staff-repository.js';

/** A desk session acting for one of its clinics: what the clinic API needs of it. */
export interface StaffCaller {
  accountId: number;
  sessionId: number;
  clinicId: number;
  role: StaffRole;
}

/**
 * The staff caller of a request's desk cookie, or null without a live session. The clinic is the
 * one `x-marpe-clinic` names, or the only one the account works at (400 clinic_required when it
 * works at several and names none; 403 forbidden for a clinic it does not work at).
 */
export function createStaffCallers(deps: {
  repository: StaffRepository;
  service: Pick<StaffAuthService, 'authenticate'>;
  cookie: StaffCookie;
}) {
  const { repository, service, cookie } = deps;
  return {
    hasCookie: (request: FastifyRequest): boolean => cookie.read(request) !== null,

    async resolve(request: FastifyRequest): Promise<StaffCaller | null> {
      const token = cookie.read(request);
      const session = token ? await service.authenticate(token) : null;
      if (!session) return null;
      const memberships = await repository.memberships(repository.db, session.accountId);
      const header = request.headers[STAFF_CLINIC_HEADER];
      const named = typeof header === 'string' && header !== '' ? Number(header) : null;
      const membership =
        named === null
          ? memberships.length === 1
            ? memberships[0]
            : undefined
          : memberships.find((m) => m.clinicId === named);
      if (!membership) {
        if (named === null && memberships.length > 1) {
          throw new AppError(
            'clinic_required',
            400,
            `Name the clinic to act for in the ${STAFF_CLINIC_HEADER} header`,
          );
        }
        throw new AppError('forbidden', 403, 'You are not on the staff of this clinic');
      }
      return {
        accountId: session.accountId,
        sessionId: session.sessionId,
        clinicId: membership.clinicId,
        role: membership.role,
      };
    },
  };
}

export type StaffCallers = ReturnType<typeof createStaffCallers>;
