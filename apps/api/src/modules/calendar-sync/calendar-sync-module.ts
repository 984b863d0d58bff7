import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Config, ServiceAccountKey } from '../../platform/config.js';
import type { Database } from '../../platform/db/client.js';
import type { ClinicDataCache } from '../clinics/clinic-data-cache.js';
import { registerIntegrationRoutes } from '../../platform/http/integration-routes.js';
import type { AppOutbox } from '../messaging/messaging.js';
import type { Webhooks } from '../webhooks/webhooks-service.js';
import { createCalendarSyncRepository } from './calendar-sync-repository.js';
import {
  calendarMicrosoftNotifyRoutes,
  calendarNotifyRoutes,
  calendarSyncIntegrationRoutes,
} from './calendar-sync-routes.js';
import { NOTIFY_PATHS } from './calendar-push-channels.js';
import {
  CALENDAR_WRITE_TOPIC,
  createCalendarSync,
  type CalendarSync,
} from './calendar-sync-service.js';
import {
  createGoogleCalendarApi,
  type GoogleTransport,
} from './providers/google/google-calendar-api.js';
import { createGoogleStandIn, type GoogleStandIn } from './providers/google/google-standin.js';
import { sealingKey } from '../../platform/crypto.js';
import { GOOGLE_CALENDAR_API_BASE_URL } from '../../platform/config.js';
import { createCalendarConnectionsRepository } from './calendar-connections-repository.js';
import { CALLBACK_PATH, createCalendarConnections } from './calendar-connections.js';
import { routingCalendarApi } from './routing-calendar-api.js';
import {
  calendarConnectionIntegrationRoutes,
  registerCalendarConnectPages,
} from './calendar-connect-routes.js';
import { DEMO_GOOGLE_ACCOUNT, registerDemoConsentPage } from './demo-consent-page.js';
import type { ConsentOAuth } from './consent-oauth.js';
import { createGoogleOAuth } from './providers/google/google-oauth.js';
import type { GraphStandIn } from './providers/microsoft/graph-standin.js';
import { setUpMicrosoft } from './providers/microsoft/microsoft-setup.js';
import { createStandInOAuth, type StandInOAuth } from './providers/google/google-standin-oauth.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Caregivers' Google Calendars: the mirror, its worker, the last check and the write-back. */
    calendarSync: CalendarSync;
    /** Demo mode without a service account: the in-process stand-in for Google's API. */
    googleStandIn: GoogleStandIn | null;
    /** Demo mode without a Microsoft app: the in-process stand-in for Graph. */
    graphStandIn: GraphStandIn | null;
  }
}

/** The demo's service account: its key is made at start-up, so it exists nowhere else. */
export const DEMO_SERVICE_ACCOUNT_EMAIL = 'marpe-demo@marpe-demo.iam.gserviceaccount.com';
/** Where the stand-in is "reached" (in-process: this host is never looked up). */
const STANDIN_ORIGIN = 'http://google-standin.invalid';

/** Requests to the stand-in answered in-process, as the card sandbox's provider API is. */
function standInTransport(standIn: GoogleStandIn): GoogleTransport {
  return async (url, init) => {
    const target = new URL(url);
    const answer = standIn.handle({
      method: init.method ?? 'GET',
      path: target.pathname,
      query: Object.fromEntries(target.searchParams),
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body:
        typeof init.body === 'string'
          ? init.body
          : init.body instanceof URLSearchParams
            ? init.body.toString()
            : '',
    });
    return new Response(answer.status === 204 ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  };
}

/**
 * Google Calendar sync (docs/calendar-sync.md, ADR 031): the push-notification route, the clinic's
 * status routes, the write-back's outbox topic (so before `ready()`), and the worker from `ready`
 * to `close`.
 */
export async function registerCalendarSync(
  app: FastifyInstance,
  deps: {
    config: Pick<Config, 'demo' | 'publicOrigin' | 'calendar'>;
    db: Database;
    clock: () => number;
    webhooks: Webhooks;
    outbox: AppOutbox;
    cache: Pick<ClinicDataCache, 'invalidate'>;
    /** How often the worker looks for due calendars (default 15 s). */
    tickMs?: number;
  },
): Promise<CalendarSync> {
  const { config } = deps;
  const { serviceAccountKey, apiBaseUrl, tokenUrl, freeBusyTimeoutMs } = config.calendar;
  let standIn: GoogleStandIn | null = null;
  let standInOAuth: StandInOAuth | null = null;
  let serviceAccount = null;
  let oauth: ConsentOAuth | null = null;
  const redirectUri = `${config.publicOrigin}${CALLBACK_PATH}`;
  if (config.calendar.oauth) {
    oauth = createGoogleOAuth({
      ...config.calendar.oauth,
      tokenUrl,
      apiBaseUrl: apiBaseUrl ?? GOOGLE_CALENDAR_API_BASE_URL,
    });
  }
  if (serviceAccountKey && apiBaseUrl) {
    serviceAccount = createGoogleCalendarApi({ key: serviceAccountKey, apiBaseUrl, tokenUrl });
  } else if (config.demo && apiBaseUrl === null) {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const key: ServiceAccountKey = {
      client_email: DEMO_SERVICE_ACCOUNT_EMAIL,
      private_key: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    };
    // The stand-in plays Google's OAuth too: a caregiver connects the demo account's calendars.
    standInOAuth = createStandInOAuth({
      clientId: 'marpe-demo.apps.googleusercontent.com',
      clientSecret: randomBytes(16).toString('base64url'),
      redirectUri,
    });
    standInOAuth.addAccount({
      email: DEMO_GOOGLE_ACCOUNT,
      calendars: [
        {
          id: 'clinic-shifts@group.demo-google.example',
          summary: 'משמרות במרפאה',
          accessRole: 'writer',
        },
        {
          id: 'he.jewish#holiday@group.v.calendar.google.com',
          summary: 'חגים בישראל',
          accessRole: 'reader',
        },
      ],
    });
    standIn = createGoogleStandIn({
      clientEmail: key.client_email,
      publicKey: pair.publicKey,
      autoCreate: true,
      oauth: standInOAuth,
    });
    const transport = standInTransport(standIn);
    serviceAccount = createGoogleCalendarApi({
      key,
      apiBaseUrl: `${STANDIN_ORIGIN}/calendar/v3`,
      tokenUrl: `${STANDIN_ORIGIN}/token`,
      transport,
    });
    oauth ??= createGoogleOAuth({
      clientId: standInOAuth.clientId,
      clientSecret: standInOAuth.clientSecret,
      authorizeUrl: `${config.publicOrigin}/demo/google/consent`,
      tokenUrl: `${STANDIN_ORIGIN}/token`,
      revokeUrl: `${STANDIN_ORIGIN}/revoke`,
      apiBaseUrl: `${STANDIN_ORIGIN}/calendar/v3`,
      transport,
    });
  }
  const microsoft = await setUpMicrosoft(app, {
    config: config.calendar.microsoft,
    demo: config.demo,
    redirectUri,
    notifyPath: NOTIFY_PATHS.microsoft,
  });
  let calendarSync: CalendarSync | null = null;
  const connections = createCalendarConnections({
    repository: createCalendarConnectionsRepository(deps.db),
    oauth: {
      ...(oauth ? { google: oauth } : {}),
      ...(microsoft.oauth ? { microsoft: microsoft.oauth } : {}),
    },
    sealKey: sealingKey(app.dataKeys, 'calendar'),
    clock: deps.clock,
    publicOrigin: config.publicOrigin,
    log: app.log,
    changed: (clinicId) => {
      deps.cache.invalidate(clinicId);
      calendarSync?.kick();
    },
  });
  const api =
    serviceAccount || connections.providers.length > 0
      ? routingCalendarApi(serviceAccount, connections)
      : null;
  calendarSync = createCalendarSync({
    repository: createCalendarSyncRepository(deps.db),
    api,
    clock: deps.clock,
    log: app.log,
    publicOrigin: config.publicOrigin,
    webhooks: deps.webhooks,
    invalidateClinic: (clinicId) => deps.cache.invalidate(clinicId),
    enqueueWrite: (ex, appointmentId) =>
      deps.outbox.enqueue(ex, { topic: CALENDAR_WRITE_TOPIC, payload: { appointmentId } }),
    freeBusyTimeoutMs,
    tickMs: deps.tickMs,
    onServerFault: () => app.metrics?.observeCalendarServerFault(),
    allowedClinics: config.calendar.serviceAccountClinics,
    connectProviders: connections.providers,
  });
  const sync = calendarSync;
  const opened = config.calendar.serviceAccountClinics;
  if (serviceAccount && !standIn && opened !== 'all' && opened.length === 0) {
    app.log.warn(
      'GOOGLE_SERVICE_ACCOUNT_KEY is set but GOOGLE_SERVICE_ACCOUNT_CLINICS names no clinic: no calendar can be connected',
    );
  }
  if (standIn) {
    // The stand-in pushes as Google does: a POST to each channel's address, here in-process.
    standIn.onChange((calendarId) => {
      for (const channel of standIn?.channels(calendarId) ?? []) {
        void app.inject({
          method: 'POST',
          url: NOTIFY_PATHS.google,
          headers: {
            'x-goog-channel-id': channel.id,
            'x-goog-channel-token': channel.token,
            'x-goog-resource-id': channel.resourceId,
            'x-goog-resource-state': 'exists',
          },
        });
      }
    });
  }
  deps.outbox.handle(CALENDAR_WRITE_TOPIC, async (payload) => {
    const { appointmentId } = payload as { appointmentId: number };
    await sync.write(appointmentId);
  });
  app.decorate('calendarSync', sync);
  app.decorate('googleStandIn', standIn);
  app.decorate('graphStandIn', microsoft.standIn);
  app.addHook('onReady', async () => sync.start());
  app.addHook('onClose', async () => sync.stop());
  await app.register(calendarNotifyRoutes, { prefix: '/api', calendarSync: sync });
  await app.register(calendarMicrosoftNotifyRoutes, { prefix: '/api', calendarSync: sync });
  await registerIntegrationRoutes(app, calendarSyncIntegrationRoutes, { calendarSync: sync });
  // Links are made by the clinic's owners (a key may do everything).
  await registerIntegrationRoutes(
    app,
    calendarConnectionIntegrationRoutes,
    { connections, serviceAccount },
    'owner-writes',
  );
  await registerCalendarConnectPages(app, {
    connections,
    authorizeOrigins: [oauth, microsoft.oauth].flatMap((o) =>
      o ? [new URL(o.authorizeUrl).origin] : [],
    ),
    secureCookie: config.publicOrigin.startsWith('https:'),
  });
  if (standInOAuth) {
    const google = standInOAuth;
    await registerDemoConsentPage(app, {
      provider: 'google',
      name: 'Google',
      account: DEMO_GOOGLE_ACCOUNT,
      consent: (query, allow) =>
        google.consent(query, allow ? { account: DEMO_GOOGLE_ACCOUNT } : 'cancel'),
    });
  }
  return sync;
}
