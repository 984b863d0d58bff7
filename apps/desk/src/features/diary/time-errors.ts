import type { TFunction } from 'i18next';
import { ApiError } from '../../lib/api';
import { serverFieldErrors, type FieldErrors } from '../../lib/field-errors';

/**
 * A refused booking or move's field errors, with the diary's own words for the start the API
 * refuses (not a time the caregiver offers, or past), which the shared translations only call
 * invalid.
 */
export function diaryFieldErrors(t: TFunction, error: unknown): FieldErrors | null {
  const fields = serverFieldErrors(t, error);
  if (!fields || !(error instanceof ApiError)) return fields;
  const start = error.issues.find((issue) => issue.path === 'start_date');
  if (start?.message.startsWith('Not a slot')) {
    fields.start_date = t('diary:errors.notOffered');
  } else if (start?.message.startsWith('The start has passed')) {
    fields.start_date = t('diary:errors.past');
  } else if (start?.message.startsWith('This is the appointment')) {
    fields.start_date = t('diary:errors.sameTime');
  }
  return fields;
}
