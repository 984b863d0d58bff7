import { vi } from 'vitest';

export interface ApiCall {
  method: string;
  /** Path and query, as sent: `/api/patient-auth/login`. */
  path: string;
  body: unknown;
  headers: Headers;
}

/** Answers one call; `call` is what was sent. */
export type Answer = (call: ApiCall) => Response | Promise<Response>;

export function json(body: unknown, status = 200, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/** An error answer shaped like the API's (`{ code, message }`). */
export function apiError(status: number, code: string, extra: Record<string, unknown> = {}) {
  return json({ code, message: code, ...extra }, status);
}

/**
 * Stubs fetch with routes keyed `'METHOD /api/path'`. A list answers call by call, its last entry
 * repeating; an unknown route fails the test loudly. Every call is recorded in order.
 */
export function stubApi(routes: Record<string, Answer | Answer[]>) {
  const calls: ApiCall[] = [];
  const counts = new Map<string, number>();
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const call: ApiCall = {
      method,
      path: `${url.pathname}${url.search}`,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: new Headers(init?.headers),
    };
    calls.push(call);
    const key = `${method} ${url.pathname}`;
    const route = routes[key];
    if (!route) throw new Error(`unexpected call ${key}`);
    const answers = Array.isArray(route) ? route : [route];
    const index = counts.get(key) ?? 0;
    counts.set(key, index + 1);
    const answer = answers[Math.min(index, answers.length - 1)];
    if (!answer) throw new Error(`no answer for ${key}`);
    return answer(call);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    fetchMock,
    calls,
    /** The calls made to one route, e.g. `callsTo('POST /api/patient-auth/login')`. */
    callsTo: (key: string) => calls.filter((call) => `${call.method} ${call.path}` === key),
  };
}
