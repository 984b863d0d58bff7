import type { CreatedStaffInvitation, CreateStaffInvitationBody } from '@marpe/shared';
import { api } from '../../../lib/api';

/** A one-time invitation link for a mobile number (by SMS too, unless `send_sms` is false). */
export const inviteStaff = (body: CreateStaffInvitationBody) =>
  api<CreatedStaffInvitation>('/api/integration/staff/invitations', { method: 'POST', body });

/** Cancels an open invitation: its link stops working. */
export const cancelInvitation = (id: number) =>
  api<undefined>(`/api/integration/staff/invitations/${id}`, { method: 'DELETE' });
