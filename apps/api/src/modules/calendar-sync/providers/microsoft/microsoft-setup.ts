import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { MicrosoftConfig } from '../../../../platform/config.js';
import type { ConsentOAuth } from '../../consent-oauth.js';
import { DEMO_MICROSOFT_ACCOUNT, registerDemoConsentPage } from '../../demo-consent-page.js';
import type { GraphTransport } from './graph-calendar-api.js';
import { createGraphStandIn, type GraphStandIn } from './graph-standin.js';
import { createMicrosoftOAuth } from './microsoft-oauth.js';

/** Where the demo's Microsoft stand-in is "reached" (in-process: never looked up). */
const STANDIN_ORIGIN = 'http://microsoft-standin.invalid';

/** Requests to the stand-in answered in-process, as the Google stand-in's are. */
function standInTransport(standIn: GraphStandIn): GraphTransport {
  return async (url, init) => {
    const target = new URL(url);
    const answer = await standIn.handle({
      method: init.method ?? 'GET',
      path: target.pathname,
      query: Object.fromEntries(target.searchParams),
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body: typeof init.body === 'string' ? init.body : '',
    });
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json', ...answer.headers },
    });
  };
}

/**
 * Microsoft 365 calendars (ADR 043): the app registration's OAuth when configured; in the demo
 * without one, the in-process stand-in plays the identity platform and Graph, with its consent
 * page (`/demo/microsoft/consent`) and its change notifications sent to Marpe in-process.
 */
export async function setUpMicrosoft(
  app: FastifyInstance,
  options: {
    config: MicrosoftConfig | null;
    demo: boolean;
    redirectUri: string;
    notifyPath: string;
  },
): Promise<{ oauth: ConsentOAuth | null; standIn: GraphStandIn | null }> {
  if (options.config) return { oauth: createMicrosoftOAuth(options.config), standIn: null };
  if (!options.demo) return { oauth: null, standIn: null };
  const standIn = createGraphStandIn({
    clientId: 'marpe-demo-microsoft',
    clientSecret: randomBytes(16).toString('base64url'),
    redirectUri: options.redirectUri,
    allowHttp: true,
    // The handshake as Graph makes it: a POST with the token, answered with it.
    validate: async (url, token) => {
      const target = new URL(url);
      target.searchParams.set('validationToken', token);
      const answer = await app.inject({
        method: 'POST',
        url: `${target.pathname}${target.search}`,
        headers: { 'content-type': 'text/plain' },
      });
      return answer.statusCode === 200 ? answer.body : null;
    },
  });
  standIn.setBaseUrl(STANDIN_ORIGIN);
  standIn.addAccount({
    email: DEMO_MICROSOFT_ACCOUNT,
    calendars: [
      { id: 'AAMkDemoCalendar', name: 'יומן', canEdit: true, isDefaultCalendar: true },
      { id: 'AAMkDemoHolidays', name: 'חגים בישראל', canEdit: false },
    ],
  });
  standIn.onChange((subscription) => {
    void app.inject({
      method: 'POST',
      url: options.notifyPath,
      payload: {
        value: [
          {
            subscriptionId: subscription.id,
            clientState: subscription.clientState,
            changeType: 'updated',
            resource: subscription.resource,
          },
        ],
      },
    });
  });
  const transport = standInTransport(standIn);
  await registerDemoConsentPage(app, {
    provider: 'microsoft',
    name: 'Microsoft',
    account: DEMO_MICROSOFT_ACCOUNT,
    consent: (query, allow) =>
      standIn.consent(
        query as Record<string, string>,
        allow ? { account: DEMO_MICROSOFT_ACCOUNT } : 'cancel',
      ),
  });
  const oauth = createMicrosoftOAuth({
    clientId: standIn.clientId,
    clientSecret: standIn.clientSecret,
    authorityUrl: `${STANDIN_ORIGIN}/common/oauth2/v2.0`,
    authorizeUrl: `${new URL(options.redirectUri).origin}/demo/microsoft/consent`,
    graphBaseUrl: `${STANDIN_ORIGIN}/v1.0`,
    transport,
  });
  return { oauth, standIn };
}
