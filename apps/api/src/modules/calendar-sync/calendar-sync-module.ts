import { generateKeyPairSync } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Config, ServiceAccountKey } from '../../platform/config.js';
import type { Database } from '../../platform/db/client.js';
import type { ClinicDataCache } from '../clinics/clinic-data-cache.js';
import { registerIntegrationRoutes } from '../integration/integration-auth.js';
import type { AppOutbox } from '../messaging/messaging.js';
import type { Webhooks } from '../webhooks/webhooks-service.js';
import { createCalendarSyncRepository } from './calendar-sync-repository.js';
import { calendarNotifyRoutes, calendarSyncIntegrationRoutes } from './calendar-sync-routes.js';
import {
  CALENDAR_NOTIFY_PATH,
  CALENDAR_WRITE_TOPIC,
  createCalendarSync,
  type CalendarSync,
} from './calendar-sync-service.js';
import { createGoogleCalendarApi, type GoogleTransport } from './google-calendar-api.js';
import { createGoogleStandIn, type GoogleStandIn } from './google-standin.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Caregivers' Google Calendars: the mirror, its worker, the last check and the write-back. */
    calendarSync: CalendarSync;
    /** Demo mode without a service account: the in-process stand-in for Google's API. */
    googleStandIn: GoogleStandIn | null;
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
 * Google Calendar sync (issue 24): the push-notification route, the clinic's status routes, the
 * write-back's outbox topic (so before `ready()`), and the worker from `ready` to `close`.
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
  let api = null;
  if (serviceAccountKey && apiBaseUrl) {
    api = createGoogleCalendarApi({ key: serviceAccountKey, apiBaseUrl, tokenUrl });
  } else if (config.demo && apiBaseUrl === null) {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const key: ServiceAccountKey = {
      client_email: DEMO_SERVICE_ACCOUNT_EMAIL,
      private_key: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    };
    standIn = createGoogleStandIn({
      clientEmail: key.client_email,
      publicKey: pair.publicKey,
      autoCreate: true,
    });
    api = createGoogleCalendarApi({
      key,
      apiBaseUrl: `${STANDIN_ORIGIN}/calendar/v3`,
      tokenUrl: `${STANDIN_ORIGIN}/token`,
      transport: standInTransport(standIn),
    });
  }
  const calendarSync = createCalendarSync({
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
  });
  const opened = config.calendar.serviceAccountClinics;
  if (api && !standIn && opened !== 'all' && opened.length === 0) {
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
          url: CALENDAR_NOTIFY_PATH,
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
    await calendarSync.write(appointmentId);
  });
  app.decorate('calendarSync', calendarSync);
  app.decorate('googleStandIn', standIn);
  app.addHook('onReady', async () => calendarSync.start());
  app.addHook('onClose', async () => calendarSync.stop());
  await app.register(calendarNotifyRoutes, { prefix: '/api', calendarSync });
  await registerIntegrationRoutes(app, calendarSyncIntegrationRoutes, { calendarSync });
  return calendarSync;
}
