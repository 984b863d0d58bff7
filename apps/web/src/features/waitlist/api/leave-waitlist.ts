import type { AppointmentActionResponse } from '@marpe/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { waitlistKey } from './get-waitlist';

/** `DELETE /api/waitlist/:id`; 404 waitlist_entry_not_found when it is gone already. */
export function leaveWaitlist(entryId: number): Promise<AppointmentActionResponse> {
  return apiRequest('DELETE', `/waitlist/${entryId}`);
}

/** Leaves, then reloads the entries whatever the outcome. */
export function useLeaveWaitlist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: leaveWaitlist,
    onSettled: () => queryClient.invalidateQueries({ queryKey: waitlistKey }),
  });
}
