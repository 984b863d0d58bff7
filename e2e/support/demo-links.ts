/**
 * A fresh demo link (POST /api/dev/demo-links, demo mode only) as a path on the server under
 * test: `formUrl` for the demo intake form, `paymentUrl` for the demo payment request.
 */
export async function demoLinkPath(
  baseUrl: string,
  link: 'formUrl' | 'paymentUrl',
): Promise<string> {
  const send = (headers: Record<string, string> = {}) =>
    fetch(`${baseUrl}/api/dev/demo-links`, { method: 'POST', headers });
  let response = await send();
  if (response.status === 403) {
    // The anti-forgery cookie comes with the refusal; a second try carries it back.
    // Named __Host-XSRF-TOKEN when the server's public origin is https.
    const [, name = 'XSRF-TOKEN', cookie = ''] =
      /((?:__Host-)?XSRF-TOKEN)=([^;]+)/.exec(response.headers.get('set-cookie') ?? '') ?? [];
    response = await send({
      Cookie: `${name}=${cookie}`,
      'X-XSRF-TOKEN': decodeURIComponent(cookie),
    });
  }
  if (response.status !== 200) throw new Error(`/api/dev/demo-links answered ${response.status}`);
  const links = (await response.json()) as Record<typeof link, string>;
  return new URL(links[link], baseUrl).pathname;
}
