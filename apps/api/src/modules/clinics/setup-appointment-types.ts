import type {
  CreateAppointmentTypeBody,
  IntegrationAppointmentType,
  UpdateAppointmentTypeBody,
} from '@marpe/shared';
import { AppError } from '../../platform/errors.js';
import type { ClinicActor } from '../../platform/http/integration-routes.js';
import { createSetupSteps, type ClinicServiceDeps } from './setup-steps.js';

const typeNotFound = (id: number) =>
  new AppError('appointment_type_not_found', 404, `No appointment type ${id} in this clinic`);

/** The clinic's appointment types and which caregivers give them. */
export function createSetupAppointmentTypes(
  deps: Pick<ClinicServiceDeps, 'repository' | 'cache' | 'clock'>,
) {
  const { repository, clock } = deps;
  const { db } = repository;
  const { checkIds, changeSetup, audited } = createSetupSteps(deps);

  async function readType(clinicId: number, typeId: number): Promise<IntegrationAppointmentType> {
    const [type] = await repository.listTypes(db, clinicId, typeId);
    if (!type) throw typeNotFound(typeId);
    return {
      id: type.id,
      name: type.name,
      duration_minutes: type.durationMinutes,
      caregiver_ids: type.caregiverIds,
    };
  }

  return {
    async listAppointmentTypes(clinicId: number): Promise<IntegrationAppointmentType[]> {
      const types = await repository.listTypes(db, clinicId);
      return types.map((t) => ({
        id: t.id,
        name: t.name,
        duration_minutes: t.durationMinutes,
        caregiver_ids: t.caregiverIds,
      }));
    },

    getAppointmentType: readType,

    async createAppointmentType(clinicActor: ClinicActor, body: CreateAppointmentTypeBody) {
      const now = clock();
      const id = await changeSetup(clinicActor.clinicId, async (tx, clinic) => {
        const caregiverIds = body.caregiver_ids ?? [];
        await checkIds(tx, clinic.id, caregiverIds, 'caregiver', 'caregiver_ids');
        const typeId = await repository.insertType(tx, clinic.id, {
          name: body.name,
          durationMinutes: body.duration_minutes,
        });
        await repository.replaceTypeCaregivers(tx, typeId, caregiverIds);
        await audited(tx, clinicActor, now, {
          action: 'appointment_type.create',
          targetType: 'appointment_type',
          targetId: typeId,
          details: { changes: body },
        });
        return typeId;
      });
      return readType(clinicActor.clinicId, id);
    },

    async updateAppointmentType(
      clinicActor: ClinicActor,
      typeId: number,
      body: UpdateAppointmentTypeBody,
    ) {
      const now = clock();
      await changeSetup(clinicActor.clinicId, async (tx, clinic) => {
        const type = await repository.findType(tx, clinic.id, typeId);
        if (!type) throw typeNotFound(typeId);
        if (body.name !== undefined || body.duration_minutes !== undefined) {
          await repository.updateType(tx, type.id, {
            ...(body.name === undefined ? {} : { name: body.name }),
            ...(body.duration_minutes === undefined
              ? {}
              : { durationMinutes: body.duration_minutes }),
          });
        }
        if (body.caregiver_ids) {
          await checkIds(tx, clinic.id, body.caregiver_ids, 'caregiver', 'caregiver_ids');
          await repository.replaceTypeCaregivers(tx, type.id, body.caregiver_ids);
        }
        await audited(tx, clinicActor, now, {
          action: 'appointment_type.update',
          targetType: 'appointment_type',
          targetId: type.id,
          details: { changes: body },
        });
      });
      return readType(clinicActor.clinicId, typeId);
    },

    /** Refused (409) once any appointment, booked or cancelled, is of this type: they keep it. */
    async deleteAppointmentType(clinicActor: ClinicActor, typeId: number): Promise<void> {
      const now = clock();
      await changeSetup(clinicActor.clinicId, async (tx) => {
        // Locked: no booking can take the type between the check and the delete.
        const type = await repository.findType(tx, clinicActor.clinicId, typeId, true);
        if (!type) throw typeNotFound(typeId);
        if (await repository.isTypeBooked(tx, type.id)) {
          throw new AppError(
            'conflict',
            409,
            'Appointments are of this type; stop offering it instead (PATCH caregiver_ids: [])',
          );
        }
        await repository.deleteType(tx, type.id);
        await audited(tx, clinicActor, now, {
          action: 'appointment_type.delete',
          targetType: 'appointment_type',
          targetId: type.id,
        });
      });
    },
  };
}
