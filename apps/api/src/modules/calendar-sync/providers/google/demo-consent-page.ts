import type { FastifyInstance } from 'fastify';
import type { StandInOAuth } from './google-standin-oauth.js';

// Demo mode only (the stand-in plays Google): Google's consent screen, reduced to the demo
// account and "Allow" / "Cancel". It sends the browser back to Marpe's callback with a code the
// stand-in's token endpoint checks as Google would (client, redirect URI, PKCE).

/** The demo's Google account, whose calendars a caregiver can connect. */
export const DEMO_GOOGLE_ACCOUNT = 'caregiver@demo-google.example';

const escape = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const page = (body: string) =>
  `<!doctype html><html lang="en" dir="ltr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>Sign in with Google (demo)</title><style>body{font-family:system-ui,Arial,sans-serif;max-width:30rem;margin:2rem auto;padding:0 1rem;line-height:1.5}button{font:inherit;padding:.6rem 1.2rem;margin-inline-end:.5rem;border-radius:6px;border:1px solid #1a73e8;background:#1a73e8;color:#fff}button[value=cancel]{background:#fff;color:#1a56b8}button:focus-visible{outline:3px solid #000;outline-offset:2px}</style></head><body><main>${body}</main></body></html>`;

const PARAMS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'access_type',
  'prompt',
  'include_granted_scopes',
] as const;

export async function registerDemoConsentPage(
  app: FastifyInstance,
  oauth: StandInOAuth,
): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16_384 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    scope.get('/demo/google/consent', { schema: { hide: true } }, async (request, reply) => {
      const query = request.query as Record<string, string | undefined>;
      const hidden = PARAMS.filter((name) => query[name] !== undefined)
        .map((name) => `<input type="hidden" name="${name}" value="${escape(query[name] ?? '')}">`)
        .join('');
      const scopes = (query.scope ?? '').split(' ').filter(Boolean);
      return reply.type('text/html; charset=utf-8').send(
        page(`<h1>Google (demo)</h1>
<p>This stands in for Google's consent screen; no real account is involved.</p>
<p>Signed in as <strong>${escape(DEMO_GOOGLE_ACCOUNT)}</strong>. Marpe asks to:</p>
<ul>${scopes.map((s) => `<li>${escape(s)}</li>`).join('')}</ul>
<form method="post" action="/demo/google/consent">${hidden}
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="cancel">Cancel</button></form>`),
      );
    });
    scope.post(
      '/demo/google/consent',
      { config: { xsrf: false }, schema: { hide: true } },
      async (request, reply) => {
        const body = (request.body ?? {}) as Record<string, string | undefined>;
        const answer = oauth.consent(
          body,
          body.decision === 'allow' ? { account: DEMO_GOOGLE_ACCOUNT } : 'cancel',
        );
        if ('error' in answer) {
          return reply
            .status(400)
            .type('text/html; charset=utf-8')
            .send(page(`<h1>Error</h1><p>${escape(answer.error)}</p>`));
        }
        return reply.redirect(answer.redirect, 303);
      },
    );
  });
}
