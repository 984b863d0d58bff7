import type { Closure, CreateClosureBody, HolidaySuggestion } from '@marpe/shared';
import { api } from '../../../lib/api';

export const closuresQueryKey = ['setup', 'closures'] as const;

/** From today on (clinic time), by date. */
export const listClosures = () => api<Closure[]>('/api/integration/closures');

export const createClosure = (body: CreateClosureBody) =>
  api<Closure>('/api/integration/closures', { method: 'POST', body });

export const deleteClosure = (id: number) =>
  api<undefined>(`/api/integration/closures/${id}`, { method: 'DELETE' });

export const holidaysQueryKey = (year: number) => ['setup', 'holidays', year] as const;

export const listHolidaySuggestions = (year: number) =>
  api<HolidaySuggestion[]>(`/api/integration/closures/holiday-suggestions?year=${year}`);
