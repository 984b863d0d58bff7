import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, configureApiClient, createApiClient } from './api-client';

const fetchMock = vi.fn<typeof fetch>();
const reload = vi.fn();

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

function sentRequest() {
  const [url, init] = fetchMock.mock.calls[0] ?? [];
  return { url, init, headers: new Headers(init?.headers) };
}

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  configureApiClient({ baseUrl: '/api', reload });
});

afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
  reload.mockReset();
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
});

describe('apiRequest', () => {
  it('sends credentials, JSON and the stored bearer token', async () => {
    localStorage.setItem('token', 'secret-token');
    fetchMock.mockResolvedValue(json(200, { ok: true }));

    const result = await apiRequest('POST', '/get-form', { body: { token: 'abc' } });

    expect(result).toEqual({ ok: true });
    const { url, init, headers } = sentRequest();
    expect(url).toBe('/api/get-form');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('include');
    expect(init?.body).toBe('{"token":"abc"}');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(headers.get('Authorization')).toBe('Bearer secret-token');
    expect(headers.has('X-XSRF-TOKEN')).toBe(false);
  });

  it('sends an empty bearer token when there is none, and no JSON type without a body', async () => {
    fetchMock.mockResolvedValue(json(200, []));

    await apiRequest('GET', '/clinic');

    const { init, headers } = sentRequest();
    // Header values are trimmed, so "Bearer " arrives as "Bearer".
    expect(headers.get('Authorization')).toBe('Bearer');
    expect(headers.has('Content-Type')).toBe(false);
    expect(init?.body).toBeUndefined();
  });

  it('copies the XSRF-TOKEN cookie into the X-XSRF-TOKEN header', async () => {
    document.cookie = 'other=1';
    document.cookie = 'XSRF-TOKEN=a%2Bb%3D%3D';
    fetchMock.mockResolvedValue(json(200, {}));

    await apiRequest('PUT', '/appointment/patient-appointments', { body: { appointmentId: 1 } });

    expect(sentRequest().headers.get('X-XSRF-TOKEN')).toBe('a+b==');
  });

  it('copies the __Host- cookie the server sets over https', async () => {
    // jsdom's page is http, where a browser refuses __Host- cookies: the jar is given directly.
    const request = createApiClient({
      baseUrl: '/api',
      fetch: fetchMock,
      storage: localStorage,
      readCookies: () => 'other=1; __Host-XSRF-TOKEN=host-token',
      reload,
      language: () => 'he',
    });
    fetchMock.mockResolvedValue(json(200, {}));

    await request('POST', '/get-form', { body: { token: 'abc' } });

    expect(sentRequest().headers.get('X-XSRF-TOKEN')).toBe('host-token');
  });

  it("sends the page's language (<html lang>) as Accept-Language", async () => {
    document.documentElement.lang = 'en';
    fetchMock.mockResolvedValue(json(201, {}));

    await apiRequest('POST', '/appointment', { body: {} });

    expect(sentRequest().headers.get('Accept-Language')).toBe('en');
    document.documentElement.lang = '';
  });

  it('encodes query parameters and skips empty ones', async () => {
    fetchMock.mockResolvedValue(json(200, []));

    await apiRequest('GET', '/appointment/available-dates', {
      query: { clinicId: 'c 1', caregiverId: 7, duration: undefined, startDate: null },
    });

    expect(sentRequest().url).toBe('/api/appointment/available-dates?clinicId=c+1&caregiverId=7');
  });

  it('answers undefined for 204', async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    await expect(apiRequest('GET', '/patient-auth/logout')).resolves.toBeUndefined();
  });

  it('parses the answer with the given schema', async () => {
    fetchMock.mockResolvedValue(json(200, { status: 'ok', extra: 1 }));
    const schema = { parse: (data: unknown) => ({ status: (data as { status: string }).status }) };

    await expect(apiRequest('POST', '/submit', { body: {}, schema })).resolves.toEqual({
      status: 'ok',
    });
  });

  it('rejects an answer the schema refuses', async () => {
    fetchMock.mockResolvedValue(json(200, { status: 'nope' }));
    const schema = {
      parse: () => {
        throw new Error('bad shape');
      },
    };

    await expect(apiRequest('POST', '/submit', { body: {}, schema })).rejects.toMatchObject({
      status: 200,
      code: 'invalid_response',
    });
  });

  it('throws ApiError with the code, message and details of an error body', async () => {
    fetchMock.mockResolvedValue(
      json(409, { code: 'conflict', message: 'Already booked', details: { date: '2025-06-01' } }),
    );

    const error = await apiRequest('POST', '/appointment', { body: {} }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 409,
      code: 'conflict',
      message: 'Already booked',
      details: { date: '2025-06-01' },
      isNetworkError: false,
    });
    expect(reload).not.toHaveBeenCalled();
  });

  it('throws a generic ApiError when the error body is not JSON', async () => {
    fetchMock.mockResolvedValue(new Response('<html>Bad gateway</html>', { status: 502 }));

    await expect(apiRequest('GET', '/clinic')).rejects.toMatchObject({
      status: 502,
      code: 'http_error',
    });
  });

  it('throws a network ApiError when fetch itself fails', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));

    const error = await apiRequest('GET', '/clinic').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, code: 'network_error', isNetworkError: true });
  });

  it('drops the stored token and reloads on 401', async () => {
    localStorage.setItem('token', 'expired');
    fetchMock.mockResolvedValue(json(401, { code: 'unauthorized', message: 'Unauthorized' }));

    await expect(apiRequest('GET', '/patient-auth')).rejects.toMatchObject({ status: 401 });

    expect(localStorage.getItem('token')).toBeNull();
    expect(reload).toHaveBeenCalledOnce();
  });

  it('leaves the token and the page alone on 401 when the caller handles it', async () => {
    localStorage.setItem('token', 'expired');
    fetchMock.mockResolvedValue(json(401, { code: 'unauthorized', message: 'Unauthorized' }));

    await expect(
      apiRequest('GET', '/patient-auth/logout', { reloadOnUnauthorized: false }),
    ).rejects.toMatchObject({ status: 401, code: 'unauthorized' });

    expect(localStorage.getItem('token')).toBe('expired');
    expect(reload).not.toHaveBeenCalled();
  });

  it('keeps the hint of an invalid_phone answer', async () => {
    fetchMock.mockResolvedValue(
      json(400, { code: 'invalid_phone', message: 'Invalid phone', hint: '567' }),
    );

    await expect(apiRequest('POST', '/patient-auth/login', { body: {} })).rejects.toMatchObject({
      status: 400,
      code: 'invalid_phone',
      hint: '567',
    });
  });

  it('retries once after a 403 xsrf, with the fresh cookie the refusal set', async () => {
    document.cookie = 'XSRF-TOKEN=stale';
    fetchMock
      .mockImplementationOnce(async () => {
        document.cookie = 'XSRF-TOKEN=fresh';
        return json(403, { code: 'xsrf', message: 'Missing or invalid anti-forgery token' });
      })
      .mockResolvedValueOnce(json(200, { twoFactorToken: 't' }));

    const result = await apiRequest('POST', '/patient-auth/login', { body: { clinicId: 1 } });

    expect(result).toEqual({ twoFactorToken: 't' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    const [first, second] = fetchMock.mock.calls.map(([url, init]) => ({
      url,
      init,
      xsrf: new Headers(init?.headers).get('X-XSRF-TOKEN'),
    }));
    expect(first?.xsrf).toBe('stale');
    expect(second?.xsrf).toBe('fresh');
    expect(second?.url).toBe('/api/patient-auth/login');
    expect(second?.init?.method).toBe('POST');
    expect(second?.init?.body).toBe('{"clinicId":1}');
  });

  it('retries an xsrf refusal only once', async () => {
    fetchMock.mockImplementation(async () =>
      json(403, { code: 'xsrf', message: 'Missing or invalid anti-forgery token' }),
    );

    await expect(apiRequest('POST', '/patient-auth/login', { body: {} })).rejects.toMatchObject({
      status: 403,
      code: 'xsrf',
    });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('does not retry another 403', async () => {
    fetchMock.mockResolvedValue(json(403, { code: 'forbidden', message: 'Forbidden' }));

    await expect(apiRequest('GET', '/clinic')).rejects.toMatchObject({
      status: 403,
      code: 'forbidden',
    });
    expect(fetchMock).toHaveBeenCalledOnce();
  });
});
