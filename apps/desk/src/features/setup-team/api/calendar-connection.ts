import type { CalendarConnectionLink, CalendarProvider } from '@marpe/shared';
import { api } from '../../../lib/api';

const pathOf = (caregiverId: number) =>
  `/api/integration/caregivers/${caregiverId}/calendar-connection`;

/** A one-time link (24 hours) for the caregiver to consent and pick their calendar; voids the older. */
export const createCalendarConnection = (caregiverId: number, provider: CalendarProvider) =>
  api<CalendarConnectionLink>(pathOf(caregiverId), { method: 'POST', body: { provider } });

/** Revokes Marpe's access and stops syncing the caregiver's calendar (204 when nothing was connected). */
export const deleteCalendarConnection = (caregiverId: number) =>
  api<undefined>(pathOf(caregiverId), { method: 'DELETE' });

/** The link made last on this desk, per caregiver: shown again until it expires. */
export const calendarLinkQueryKey = (caregiverId: number) =>
  ['setup-team', 'calendar-link', caregiverId] as const;
