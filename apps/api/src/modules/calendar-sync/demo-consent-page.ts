import type { FastifyInstance } from 'fastify';

// Demo mode only (the stand-ins play Google and Microsoft): a provider's consent screen, reduced
// to the demo account and "Allow" / "Cancel". It sends the browser back to Marpe's callback with
// a code the stand-in's token endpoint checks as the provider would (client, redirect URI, PKCE).

/** The demo's Google account, whose calendars a caregiver can connect. */
export const DEMO_GOOGLE_ACCOUNT = 'caregiver@demo-google.example';
/** The demo's Microsoft account. */
export const DEMO_MICROSOFT_ACCOUNT = 'caregiver@demo-outlook.example';

/** One stand-in's consent: its page's name, account, and how it answers. */
export interface DemoConsent {
  provider: 'google' | 'microsoft';
  name: string;
  account: string;
  consent: (
    query: Record<string, string | undefined>,
    allow: boolean,
  ) => { redirect: string } | { error: string };
}

const escape = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const page = (body: string) =>
  `<!doctype html><html lang="en" dir="ltr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>Sign in (demo)</title><style>body{font-family:system-ui,Arial,sans-serif;max-width:30rem;margin:2rem auto;padding:0 1rem;line-height:1.5}button{font:inherit;padding:.6rem 1.2rem;margin-inline-end:.5rem;border-radius:6px;border:1px solid #1a73e8;background:#1a73e8;color:#fff}button[value=cancel]{background:#fff;color:#1a56b8}button:focus-visible{outline:3px solid #000;outline-offset:2px}</style></head><body><main>${body}</main></body></html>`;

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
  'response_mode',
] as const;

export async function registerDemoConsentPage(
  app: FastifyInstance,
  demo: DemoConsent,
): Promise<void> {
  const path = `/demo/${demo.provider}/consent`;
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16_384 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    scope.get(path, { schema: { hide: true } }, async (request, reply) => {
      const query = request.query as Record<string, string | undefined>;
      const hidden = PARAMS.filter((name) => query[name] !== undefined)
        .map((name) => `<input type="hidden" name="${name}" value="${escape(query[name] ?? '')}">`)
        .join('');
      const scopes = (query.scope ?? '').split(' ').filter(Boolean);
      return reply.type('text/html; charset=utf-8').send(
        page(`<h1>${escape(demo.name)} (demo)</h1>
<p>This stands in for ${escape(demo.name)}'s consent screen; no real account is involved.</p>
<p>Signed in as <strong>${escape(demo.account)}</strong>. Marpe asks to:</p>
<ul>${scopes.map((s) => `<li>${escape(s)}</li>`).join('')}</ul>
<form method="post" action="${path}">${hidden}
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="cancel">Cancel</button></form>`),
      );
    });
    scope.post(
      path,
      { config: { xsrf: false }, schema: { hide: true } },
      async (request, reply) => {
        const body = (request.body ?? {}) as Record<string, string | undefined>;
        const answer = demo.consent(body, body.decision === 'allow');
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
