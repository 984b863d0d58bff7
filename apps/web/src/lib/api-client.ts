import type { ErrorBody } from '@marpe/shared';
import { tokenStorageKey } from './auth-storage-keys';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Any parser with zod's `parse` shape; typed structurally so zod stays out of the first-load bundle. */
export interface ResponseSchema<T> {
  parse(data: unknown): T;
}

export interface RequestOptions<T> {
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  schema?: ResponseSchema<T>;
  signal?: AbortSignal;
  /**
   * `false`: the caller handles a 401 itself; the stored token is kept and the page is not
   * reloaded (checking a stored session, logging out of one that already expired).
   */
  reloadOnUnauthorized?: boolean;
  /**
   * The request outlives the page (`fetch`'s keepalive): for what a page sends as it is hidden or
   * closed. Browsers refuse keepalive bodies beyond 64 KiB in flight.
   */
  keepalive?: boolean;
}

export interface ApiErrorOptions extends ErrorOptions {
  /** invalid_phone only: the last digits of the phone on file. */
  hint?: string;
}

/** The one error every call rejects with. `status` 0 means the request never got an answer. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly hint?: string;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    options?: ApiErrorOptions,
  ) {
    super(message, options);
    if (options?.hint !== undefined) this.hint = options.hint;
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }
}

export interface ApiClientDeps {
  baseUrl: string;
  fetch: typeof fetch;
  storage: Storage;
  readCookies: () => string;
  /** Called after a 401 dropped the stored token. */
  reload: () => void;
  /** The page's language, sent as Accept-Language: the details SMS of a booking speaks it. */
  language: () => string;
}

export type ApiRequest = <T = unknown>(
  method: HttpMethod,
  path: string,
  options?: RequestOptions<T>,
) => Promise<T>;

function readCookie(cookies: string, name: string): string | undefined {
  for (const part of cookies.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

function buildUrl(baseUrl: string, path: string, query: RequestOptions<unknown>['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const search = params.toString();
  return `${baseUrl}${path.startsWith('/') ? path : `/${path}`}${search ? `?${search}` : ''}`;
}

function isErrorBody(value: unknown): value is ErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ErrorBody).code === 'string' &&
    typeof (value as ErrorBody).message === 'string'
  );
}

function parseJson(text: string): unknown {
  return text === '' ? undefined : JSON.parse(text);
}

function errorCodeOf(text: string): string | undefined {
  try {
    const body = parseJson(text);
    return isErrorBody(body) ? body.code : undefined;
  } catch {
    return undefined;
  }
}

export function createApiClient(deps: ApiClientDeps): ApiRequest {
  async function send(
    method: HttpMethod,
    url: string,
    body: unknown,
    signal: AbortSignal | undefined,
    keepalive: boolean,
  ): Promise<Response> {
    const headers = new Headers({ Accept: 'application/json' });
    // The header is always sent, with an empty token when there is none
    // (docs/product/site.md#calls).
    headers.set('Authorization', `Bearer ${deps.storage.getItem(tokenStorageKey) ?? ''}`);
    // The server names it `__Host-XSRF-TOKEN` over https (a sub-domain cannot plant it).
    const cookies = deps.readCookies();
    const xsrf = readCookie(cookies, '__Host-XSRF-TOKEN') ?? readCookie(cookies, 'XSRF-TOKEN');
    if (xsrf) headers.set('X-XSRF-TOKEN', xsrf);
    const language = deps.language();
    if (language) headers.set('Accept-Language', language);
    // Only with a body: Fastify rejects an empty body declared as JSON.
    if (body !== undefined) headers.set('Content-Type', 'application/json');

    try {
      return await deps.fetch(url, {
        method,
        headers,
        credentials: 'include',
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
        ...(keepalive ? { keepalive } : {}),
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new ApiError(0, 'network_error', 'The server could not be reached', undefined, {
        cause: error,
      });
    }
  }

  return async function apiRequest<T>(
    method: HttpMethod,
    path: string,
    {
      body,
      query,
      schema,
      signal,
      reloadOnUnauthorized = true,
      keepalive = false,
    }: RequestOptions<T> = {},
  ): Promise<T> {
    const url = buildUrl(deps.baseUrl, path, query);
    let response = await send(method, url, body, signal, keepalive);
    let text = response.status === 204 ? '' : await response.text();

    // The anti-forgery cookie was missing or stale (first visit, cleared cookies): the refusal
    // carries a fresh one, so one more try succeeds.
    if (response.status === 403 && errorCodeOf(text) === 'xsrf') {
      response = await send(method, url, body, signal, keepalive);
      text = response.status === 204 ? '' : await response.text();
    }

    if (!response.ok) {
      if (response.status === 401 && reloadOnUnauthorized) {
        deps.storage.removeItem(tokenStorageKey);
        deps.reload();
      }
      let errorBody: unknown;
      try {
        errorBody = parseJson(text);
      } catch {
        // A proxy's HTML error page, for instance: fall through to the generic error.
      }
      if (isErrorBody(errorBody)) {
        throw new ApiError(
          response.status,
          errorBody.code,
          errorBody.message,
          errorBody.details,
          typeof errorBody.hint === 'string' ? { hint: errorBody.hint } : undefined,
        );
      }
      throw new ApiError(
        response.status,
        'http_error',
        `Request failed with status ${response.status}`,
      );
    }

    try {
      const data = parseJson(text);
      return schema ? schema.parse(data) : (data as T);
    } catch (error) {
      throw new ApiError(
        response.status,
        'invalid_response',
        'The server sent an unexpected answer',
        error,
        {
          cause: error,
        },
      );
    }
  };
}

let configured: ApiRequest | undefined;

/** Called once at start-up by the app, which owns the runtime config (lib must not import app). */
export function configureApiClient(deps: Pick<ApiClientDeps, 'baseUrl'> & Partial<ApiClientDeps>) {
  configured = createApiClient({
    // Looked up per call, so tests can stub the global.
    fetch: (input, init) => globalThis.fetch(input, init),
    storage: window.localStorage,
    readCookies: () => document.cookie,
    reload: () => window.location.reload(),
    // <html lang> follows the language the patient chose.
    language: () => document.documentElement.lang,
    ...deps,
  });
}

export const apiRequest: ApiRequest = (method, path, options) => {
  if (!configured) throw new Error('apiRequest called before configureApiClient');
  return configured(method, path, options);
};
