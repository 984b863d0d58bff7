import type { CreateCaregiverBody, IntegrationCaregiver, UpdateCaregiverBody } from '@marpe/shared';
import { api } from '../../../lib/api';

export const caregiversQueryKey = ['setup-team', 'caregivers'] as const;
export const caregiverQueryKey = (id: number) => ['setup-team', 'caregivers', id] as const;

/** Every caregiver, inactive ones included, in the clinic page's order. */
export const listCaregivers = () => api<IntegrationCaregiver[]>('/api/integration/caregivers');

export const getCaregiver = (id: number) =>
  api<IntegrationCaregiver>(`/api/integration/caregivers/${id}`);

export const createCaregiver = (body: CreateCaregiverBody) =>
  api<IntegrationCaregiver>('/api/integration/caregivers', { method: 'POST', body });

/** Only the fields given change; each schedule part given replaces the caregiver's whole part. */
export const updateCaregiver = (id: number, body: UpdateCaregiverBody) =>
  api<IntegrationCaregiver>(`/api/integration/caregivers/${id}`, { method: 'PATCH', body });

/** Off the clinic page and out of booking; the appointments stay. */
export const deactivateCaregiver = (id: number) =>
  api<undefined>(`/api/integration/caregivers/${id}`, { method: 'DELETE' });
