import {
  errorBodySchema,
  integrationPatientParamsSchema,
  integrationPatientSchema,
  integrationPatientsSchema,
  MAX_IDENTITIES_PER_PHONE,
  normaliseIsraeliMobile,
  PATIENT_SEARCH_MAX_LIMIT,
  patientSearchQuerySchema,
  reassignedPatientSchema,
  reassignPatientBodySchema,
  updatePatientBodySchema,
  type IntegrationPatient,
  type ReassignedPatient,
  type ReassignPatientBody,
  type UpdatePatientBody,
} from '@marpe/shared';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { audit } from '../../platform/audit.js';
import { patients } from '../../platform/db/schema.js';
import { AppError, invalidField } from '../../platform/errors.js';
import {
  callerOf,
  refuseNulCharacters,
  clinicActorOf,
  type ClinicActor,
} from '../../platform/http/integration-routes.js';
import type { PatientAuthRepository } from './patient-auth-repository.js';
import { toPatient, tooManyIdentities } from './patient-auth-service.js';
import type { PatientSearch } from './patient-search.js';

/**
 * The clinic's corrections of its patients' records. A changed phone number is the commonest real
 * reason for `invalid_phone`; names are corrected as they were misspelt; and an ID number someone
 * else signed up with their own phone is given back to its owner (`reassign`).
 */
export function createPatientCorrections(deps: {
  repository: Pick<
    PatientAuthRepository,
    | 'db'
    | 'lockAndCountIdentities'
    | 'changePhone'
    | 'lockPatient'
    | 'reassignPatient'
    | 'upcomingAppointmentIds'
    | 'replacePendingChallenges'
    | 'clearFailures'
  >;
  clock: () => number;
}) {
  const { repository, clock } = deps;
  return {
    /**
     * `PATCH /api/integration/patients/{idNumber}`, in one transaction:
     * - `phone`: the phone the patient logs in with from now on; their sessions end (whoever held
     *   them proved the old number), codes sent to the old number stop working, and the new
     *   number's identities are capped as a sign-up's are;
     * - `first_name`, `last_name`: the names as the clinic corrects them.
     * Each kind of change audited with what it was before.
     */
    async correct(
      clinicActor: ClinicActor,
      idNumber: string,
      input: UpdatePatientBody,
    ): Promise<IntegrationPatient> {
      const phone = input.phone === undefined ? undefined : normaliseIsraeliMobile(input.phone);
      if (phone === null) throw invalidField('phone', 'Expected an Israeli mobile number');
      const now = clock();
      const row = await repository.db.transaction(async (tx) => {
        // Locked: a correction and a reassignment of one record never interleave.
        const patient = await repository.lockPatient(tx, clinicActor.clinicId, idNumber);
        if (!patient) {
          throw new AppError('patient_not_found', 404, 'No patient with this ID number here');
        }
        let current = patient;
        const firstName = input.first_name ?? patient.firstName;
        const lastName = input.last_name ?? patient.lastName;
        if (firstName !== patient.firstName || lastName !== patient.lastName) {
          await tx
            .update(patients)
            .set({ firstName, lastName, updatedAt: new Date(now) })
            .where(eq(patients.id, patient.id));
          await audit(tx, {
            clinicId: clinicActor.clinicId,
            actor: clinicActor.actor,
            action: 'patient.update_name',
            targetType: 'patient',
            targetId: patient.id,
            details: {
              previous_first_name: patient.firstName,
              previous_last_name: patient.lastName,
              first_name: firstName,
              last_name: lastName,
            },
            at: new Date(now),
          });
          current = { ...current, firstName, lastName };
        }
        if (phone === undefined || patient.phone === phone) return current;
        if (
          (await repository.lockAndCountIdentities(tx, clinicActor.clinicId, phone)) >=
          MAX_IDENTITIES_PER_PHONE
        ) {
          throw tooManyIdentities();
        }
        await repository.changePhone(tx, patient.id, phone, new Date(now));
        await audit(tx, {
          clinicId: clinicActor.clinicId,
          actor: clinicActor.actor,
          action: 'patient.update_phone',
          targetType: 'patient',
          targetId: patient.id,
          // The last digits, as the patient's phone hint shows them: enough to follow the change.
          details: { previous_phone_ends: patient.phone.slice(-3), phone_ends: phone.slice(-3) },
          at: new Date(now),
        });
        return { ...current, phone };
      });
      return toPatient(row);
    },

    /**
     * `POST /api/integration/patients/{idNumber}/reassign`: the ID number given back to its owner,
     * in one transaction, after staff checked an identity document (someone else had signed up
     * with it and their own phone, so the owner only ever heard "another phone"). The owner's
     * phone and names replace the record's together, so no stranger's names stay behind; every
     * session of the ID ends, every code still pending for it stops working, and its wrong-code
     * count starts again (the other person's failures must not lock the owner out). What belongs
     * to the ID stays with it: forms, payments, past and upcoming appointments. The upcoming ones
     * are not cancelled here, as the clinic cannot tell from the record which of them the owner
     * booked (by phone, at the desk) and which the other person did; they are answered, for staff
     * to go through with the owner and cancel those that are not theirs.
     */
    async reassign(
      clinicActor: ClinicActor,
      idNumber: string,
      input: ReassignPatientBody,
    ): Promise<ReassignedPatient> {
      const phone = normaliseIsraeliMobile(input.phone);
      if (phone === null) throw invalidField('phone', 'Expected an Israeli mobile number');
      const now = new Date(clock());
      return repository.db.transaction(async (tx) => {
        const patient = await repository.lockPatient(tx, clinicActor.clinicId, idNumber);
        if (!patient) {
          throw new AppError('patient_not_found', 404, 'No patient with this ID number here');
        }
        if (
          patient.phone !== phone &&
          (await repository.lockAndCountIdentities(tx, clinicActor.clinicId, phone)) >=
            MAX_IDENTITIES_PER_PHONE
        ) {
          throw tooManyIdentities();
        }
        const owner = { phone, firstName: input.first_name, lastName: input.last_name };
        const sessionsEnded = await repository.reassignPatient(tx, patient.id, owner, now);
        await repository.replacePendingChallenges(tx, clinicActor.clinicId, idNumber);
        await repository.clearFailures(tx, clinicActor.clinicId, idNumber);
        const upcoming = await repository.upcomingAppointmentIds(tx, patient.id, now);
        await audit(tx, {
          clinicId: clinicActor.clinicId,
          actor: clinicActor.actor,
          action: 'patient.reassign',
          targetType: 'patient',
          targetId: patient.id,
          details: {
            reason: input.reason,
            identity_document_checked: true,
            // The last digits, as the patient's phone hint shows them: enough to follow the change.
            previous_phone_ends: patient.phone.slice(-3),
            phone_ends: phone.slice(-3),
            previous_first_name: patient.firstName,
            previous_last_name: patient.lastName,
            first_name: owner.firstName,
            last_name: owner.lastName,
            sessions_ended: sessionsEnded,
            upcoming_appointment_ids: upcoming,
          },
          at: now,
        });
        return {
          patient: toPatient({ ...patient, ...owner }),
          sessions_ended: sessionsEnded,
          upcoming_appointment_ids: upcoming,
        };
      });
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
        summary: `Finds the clinic's patients by what was typed (q): words of the first or last name (each a prefix, in any order, any case), an ID number (a prefix), or a phone number (a prefix, any spelling: 052-700, +972 52 700…); every word must match. Whole matches first, then by last and first name; without q (or a blank one), every patient by last and first name. A page: at most limit (default 20, at most ${PATIENT_SEARCH_MAX_LIMIT}) from offset (default 0); the next page is offset + limit, and a page shorter than limit is the last`,
        querystring: patientSearchQuerySchema,
        response: { 200: integrationPatientsSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return search.search(callerOf(request).clinicId, request.query);
    },
  );
  app.get(
    '/patients/:idNumber',
    {
      schema: {
        tags,
        summary:
          "One of the clinic's patients by ID number (with or without its leading zeros); 404 patient_not_found",
        params: integrationPatientParamsSchema,
        response: {
          200: integrationPatientSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const patient = await search.find(callerOf(request).clinicId, request.params.idNumber);
      if (!patient) {
        throw new AppError('patient_not_found', 404, 'No patient with this ID number here');
      }
      return patient;
    },
  );
  app.patch(
    '/patients/:idNumber',
    {
      schema: {
        tags,
        summary: `Corrects a patient's names and phone (any of phone, first_name, last_name; names as a booking's new patient gives them). A new phone: they log in with it from now on, their sessions end, and codes sent to the old one stop working; 409 too_many_identities when the number already signs in ${MAX_IDENTITIES_PER_PHONE} ID numbers here. 404 patient_not_found. All or nothing; audited (patient.update_name with the names before and after, patient.update_phone with the numbers' last digits). A new phone keeps the names on file: when the ID number is another person's (someone else signed up with it), give it back with …/reassign, which replaces phone and names together`,
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
      return corrections.correct(clinicActorOf(request), request.params.idNumber, request.body);
    },
  );
  app.post(
    '/patients/:idNumber/reassign',
    {
      schema: {
        tags,
        summary: `Gives an ID number back to its owner after someone else signed up with it and their own phone: only once staff checked an identity document of the owner (identity_document_checked: true) and say why (reason, for the audit log). In one transaction: the owner's phone, first_name and last_name replace the record's together; every session of the ID ends and every code still pending for it stops working; its forms, payments and appointments stay with it. Answers the patient as now on file, how many sessions ended, and the ID's upcoming booked appointments (kept: staff go through them with the owner and cancel those that are not theirs). 409 too_many_identities when the phone already signs in ${MAX_IDENTITIES_PER_PHONE} ID numbers here; 404 patient_not_found; 400 naming the field. Audited as patient.reassign (who, why, the names before and after, the phones' last digits)`,
        params: integrationPatientParamsSchema,
        body: reassignPatientBodySchema,
        response: {
          200: reassignedPatientSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return corrections.reassign(clinicActorOf(request), request.params.idNumber, request.body);
    },
  );
};
