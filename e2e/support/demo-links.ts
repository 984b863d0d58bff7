/**
 * A POST to the server under test as the app makes it: the anti-forgery cookie comes with the
 * first refusal, and a second try carries it back (`__Host-XSRF-TOKEN` when the server's
 * PUBLIC_ORIGIN is https).
 */
async function post(baseUrl: string, path: string, body?: unknown): Promise<Response> {
  const send = (headers: Record<string, string> = {}) =>
    fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const response = await send();
  if (response.status !== 403) return response;
  const [pair = '', name = '', cookie = ''] =
    /((?:__Host-)?XSRF-TOKEN)=([^;]+)/.exec(response.headers.get('set-cookie') ?? '') ?? [];
  return send({
    Cookie: pair && `${name}=${cookie}`,
    'X-XSRF-TOKEN': decodeURIComponent(cookie),
  });
}

/**
 * A fresh demo link (POST /api/dev/demo-links, demo mode only) as a path on the server under
 * test: `formUrl` for the demo intake form, `paymentUrl` for the demo payment request.
 */
export async function demoLinkPath(
  baseUrl: string,
  link: 'formUrl' | 'paymentUrl',
): Promise<string> {
  const response = await post(baseUrl, '/api/dev/demo-links');
  if (response.status !== 200) throw new Error(`/api/dev/demo-links answered ${response.status}`);
  const links = (await response.json()) as Record<typeof link, string>;
  return new URL(links[link], baseUrl).pathname;
}

/** Saves the draft of the form link at `formPath` (`/q/<token>`), as the form page does. */
export async function saveFormDraft(
  baseUrl: string,
  formPath: string,
  draft: { inputData: Record<string, string | boolean>; stepIndex: number },
): Promise<void> {
  const token = formPath.slice('/q/'.length);
  const response = await post(baseUrl, '/api/save-form-draft', { token, ...draft });
  if (response.status !== 200) throw new Error(`/api/save-form-draft answered ${response.status}`);
}
