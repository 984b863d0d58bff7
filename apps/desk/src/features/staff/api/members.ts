import type { StaffRole } from '@marpe/shared';
import { api } from '../../../lib/api';

/** Changes a member's role (the membership's id); 409 last_owner for the clinic's last owner. */
export const changeRole = (id: number, role: StaffRole) =>
  api<undefined>(`/api/integration/staff/${id}`, { method: 'PATCH', body: { role } });

/** Removes a member from the clinic; 409 last_owner for the clinic's last owner. */
export const removeMember = (id: number) =>
  api<undefined>(`/api/integration/staff/${id}`, { method: 'DELETE' });
