import type {
  CreateAppointmentTypeBody,
  IntegrationAppointmentType,
  UpdateAppointmentTypeBody,
} from '@marpe/shared';
import { api } from '../../../lib/api';

export const appointmentTypesQueryKey = ['setup-team', 'appointment-types'] as const;

export const listAppointmentTypes = () =>
  api<IntegrationAppointmentType[]>('/api/integration/appointment-types');

export const createAppointmentType = (body: CreateAppointmentTypeBody) =>
  api<IntegrationAppointmentType>('/api/integration/appointment-types', { method: 'POST', body });

/** `caregiver_ids` given replaces the caregivers offering it. */
export const updateAppointmentType = (id: number, body: UpdateAppointmentTypeBody) =>
  api<IntegrationAppointmentType>(`/api/integration/appointment-types/${id}`, {
    method: 'PATCH',
    body,
  });

/** 409 `conflict` once any appointment is of the type: stop offering it instead. */
export const deleteAppointmentType = (id: number) =>
  api<undefined>(`/api/integration/appointment-types/${id}`, { method: 'DELETE' });
