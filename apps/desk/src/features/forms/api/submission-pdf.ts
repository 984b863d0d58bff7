import { STAFF_CLINIC_HEADER } from '@marpe/shared';
import { ApiError, currentClinicId } from '../../../lib/api';

/**
 * The submitted form's PDF, fetched as the desk calls the API (the session's cookie, the clinic
 * acted for), so it works whichever clinic is chosen; an object URL the caller revokes.
 */
export async function fetchSubmissionPdf(id: number): Promise<Blob> {
  const clinicId = currentClinicId();
  const response = await fetch(`/api/integration/form-requests/${id}/submission.pdf`, {
    credentials: 'same-origin',
    headers: clinicId === null ? {} : { [STAFF_CLINIC_HEADER]: String(clinicId) },
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as {
      code?: string;
      message?: string;
    } | null;
    throw new ApiError(
      response.status,
      body?.code ?? 'internal_error',
      body?.message ?? response.statusText,
    );
  }
  return response.blob();
}
