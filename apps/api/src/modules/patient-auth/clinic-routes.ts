import {
  errorBodySchema,
  integrationPatientParamsSchema,
  integrationPatientSchema,
  integrationPatientsSchema,
  MAX_IDENTITIES_PER_PHONE,
  normaliseIsraeliMobile,
  PATIENT_SEARCH_MAX_LIMIT,
  patientSearchQuerySchema,
  updatePatientBodySchema,
  type IntegrationPatient,
} from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { audit } from '../../platform/audit.js';
import { AppError, invalidField } from '../../platform/errors.js';
import {
  callerOf,
  refuseNulCharacters,
  writerOf,
  type Writer,
} from '../integration/integration-auth.js';
import type { PatientAuthRepository } from './patient-auth-repository.js';
import { toPatient, tooManyIdentities } from './patient-auth-service.js';
import type { PatientSearch } from './patient-search.js';

/**
 * The clinic's corrections of its patients' records (issue 25). A changed phone number is the
 * commonest real reason for `invalid_phone`, and the only way back for a patient whose ID number
 * someone else signed up with their own phone.
 */
export function createPatientCorrections(deps: {
  repository: Pick<
    PatientAuthRepository,
    'db' | 'findPatient' | 'lockAndCountIdentities' | 'changePhone'
  >;
  clock: () => number;
}) {
  const { repository, clock } = deps;
  return {
    /**
     * `PATCH /api/integration/patients/{idNumber}`: the phone the patient logs in with from now
     * on; their sessions end (whoever held them proved the old number), codes sent to the old
     * number stop working, and the new number's identities are capped as a sign-up's are. Audited.
     */
    async changePhone(
      writer: Writer,
      idNumber: string,
      input: string,
    ): Promise<IntegrationPatient> {
      const phone = normaliseIsraeliMobile(input);
      if (phone === null) throw invalidField('phone', 'Expected an Israeli mobile number');
      const now = clock();
      const row = await repository.db.transaction(async (tx) => {
        const patient = await repository.findPatient(tx, writer.clinicId, idNumber);
        if (!patient) {
          throw new AppError('patient_not_found', 404, 'No patient with this ID number here');
        }
        if (patient.phone === phone) return patient;
        if (
          (await repository.lockAndCountIdentities(tx, writer.clinicId, phone)) >=
          MAX_IDENTITIES_PER_PHONE
        ) {
          throw tooManyIdentities();
        }
        await repository.changePhone(tx, patient.id, phone, new Date(now));
        await audit(tx, {
          clinicId: writer.clinicId,
          actor: writer.actor,
          action: 'patient.update_phone',
          targetType: 'patient',
          targetId: patient.id,
          // The last digits, as the patient's phone hint shows them: enough to follow the change.
          details: { previous_phone_ends: patient.phone.slice(-3), phone_ends: phone.slice(-3) },
          at: new Date(now),
        });
        return { ...patient, phone };
      });
      return toPatient(row);
    },
  };
}

export type PatientCorrections = ReturnType<typeof createPatientCorrections>;

const tags = ['integration'];

export const patientsIntegrationRoutes: FastifyPluginAsyncZod<{
  corrections: PatientCorrections;
  search: PatientSearch;
}> = async (app, { corrections, search }) => {
  app.addHook('preValidation', refuseNulCharacters);
  app.get(
    '/patients',
    {
      schema: {
        tags,
        summary: `Finds the clinic's patients by what was typed (q): words of the first or last name (each a prefix, in any order), an ID number (a prefix), or a phone number (a prefix, any spelling: 052-700, +972 52 700…); every word must match. At most limit (default 20, at most ${PATIENT_SEARCH_MAX_LIMIT}), whole matches first, then by last and first name`,
        querystring: patientSearchQuerySchema,
        response: { 200: integrationPatientsSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return search.search(callerOf(request).clinicId, request.query);
    },
  );
  app.patch(
    '/patients/:idNumber',
    {
      schema: {
        tags,
        summary: `Corrects a patient's phone: they log in with the new number from now on, their sessions end, and codes sent to the old one stop working; 404 patient_not_found; 409 too_many_identities when the number already signs in ${MAX_IDENTITIES_PER_PHONE} ID numbers here. Audited`,
        params: integrationPatientParamsSchema,
        body: updatePatientBodySchema,
        response: {
          200: integrationPatientSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return corrections.changePhone(
        writerOf(request),
        request.params.idNumber,
        request.body.phone,
      );
    },
  );
};
