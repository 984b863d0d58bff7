import { STAFF_CLINIC_HEADER, type ValidationIssue } from '@marpe/shared';

/** An answer of the API that is not a success: its status and `{ code, message, details }`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The fields a 400 `validation_failed` named, dotted (`address.city`). */
  get issues(): ValidationIssue[] {
    const issues = (this.details as { issues?: unknown } | undefined)?.issues;
    return Array.isArray(issues) ? (issues as ValidationIssue[]) : [];
  }
}

/** Raised when a call finds the desk session over (idle, expired, signed out elsewhere). */
export const sessionEvents = new EventTarget();
export const SESSION_ENDED = 'session-ended';

let clinicId: number | null = null;

/** The clinic every clinic-API call acts for (x-marpe-clinic); null lets the server pick the only one. */
export function actForClinic(id: number | null): void {
  clinicId = id;
}

export function currentClinicId(): number | null {
  return clinicId;
}

function xsrfToken(): string | null {
  for (const part of document.cookie.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === 'XSRF-TOKEN' || name === '__Host-XSRF-TOKEN') return value.join('=');
  }
  return null;
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON, or as it is when it is a Blob (an uploaded image). */
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * Calls the API as the desk: same-origin cookies (the session), the anti-forgery header on writes,
 * the clinic acted for. Resolves with the JSON answer (undefined for 204); rejects with ApiError,
 * or a TypeError when the network fails.
 */
export async function api<T>(path: string, options: CallOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  let body: BodyInit | undefined;
  if (options.body instanceof Blob) {
    body = options.body;
    headers['content-type'] = options.body.type || 'application/octet-stream';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  if (method !== 'GET') {
    const token = xsrfToken();
    if (token) headers['x-xsrf-token'] = token;
  }
  if (clinicId !== null && path.startsWith('/api/integration/')) {
    headers[STAFF_CLINIC_HEADER] = String(clinicId);
  }
  const response = await fetch(path, {
    method,
    headers,
    body,
    credentials: 'same-origin',
    signal: options.signal,
  });
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const json: unknown = text === '' ? undefined : safeJson(text);
  if (!response.ok) {
    const error = json as { code?: string; message?: string; details?: unknown } | undefined;
    const failure = new ApiError(
      response.status,
      error?.code ?? 'internal_error',
      error?.message ?? response.statusText,
      error?.details,
    );
    if (response.status === 401 && !path.startsWith('/api/staff-auth/')) {
      sessionEvents.dispatchEvent(new Event(SESSION_ENDED));
    }
    throw failure;
  }
  return json as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
