import type { ErrorCode, ValidationDetails } from '@marpe/shared';

/**
 * The one error type services throw; the HTTP error handler turns it into
 * `{ code, message, details? }` with `status`.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    readonly details?: unknown,
    /**
     * Sent at the top level of the answer; only invalid_phone has one
     * (docs/product/login.md#rules).
     */
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** A 400 naming one field, as a schema's refusal reads. */
export function invalidField(path: string, message: string): AppError {
  const details: ValidationDetails = { issues: [{ path, message }] };
  return new AppError('validation_failed', 400, `Invalid request: ${path}`, details);
}

/** A clinic id that names no clinic: booking, the waitlist and the clinic page answer it alike. */
export function clinicNotFound(clinicId: number): AppError {
  return new AppError('clinic_not_found', 404, `Clinic ${clinicId} not found`);
}
