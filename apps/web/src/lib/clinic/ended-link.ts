import type { EndedLinkDetails } from '@marpe/shared';
import { ApiError } from '../api-client';

function endedLinkDetails(details: unknown): EndedLinkDetails | null {
  if (typeof details !== 'object' || details === null) return null;
  const { ended, clinicId } = details as Partial<Record<keyof EndedLinkDetails, unknown>>;
  if (ended !== 'submitted' && ended !== 'expired' && ended !== 'cancelled') return null;
  if (typeof clinicId !== 'number' || !Number.isSafeInteger(clinicId) || clinicId < 1) return null;
  return { ended, clinicId };
}

/**
 * Where a form or payment link's 404 sends the patient: a form already sent is received (the
 * completed page), an expired or cancelled link says so; both name the link's clinic with its
 * phone (`?clinic=`). A link nothing is known of gets the plain expired page (docs/forms.md).
 */
export function endedLinkPath(error: unknown): string {
  const ended = error instanceof ApiError ? endedLinkDetails(error.details) : null;
  if (!ended) return '/expired';
  if (ended.ended === 'submitted') return `/completed?clinic=${ended.clinicId}`;
  return `/expired?clinic=${ended.clinicId}&ended=${ended.ended}`;
}
