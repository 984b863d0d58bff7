import type { JoinWaitlistBody, WaitlistEntry } from '@marpe/shared';
import { apiRequest } from '../../../lib/api-client';

/**
 * `POST /api/waitlist` (docs/booking.md "Waitlist"): 201 joined, 200 the same entry again; 400
 * naming fromDate or toDate, 409 waitlist_full (details.max).
 */
export function joinWaitlist(body: JoinWaitlistBody): Promise<WaitlistEntry> {
  return apiRequest('POST', '/waitlist', { body });
}
