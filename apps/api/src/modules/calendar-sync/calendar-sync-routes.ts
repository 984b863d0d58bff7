import {
  calendarConflictListSchema,
  calendarConflictsQuerySchema,
  calendarSyncStatusSchema,
  errorBodySchema,
} from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../platform/errors.js';
import { callerOf, refuseNulCharacters } from '../../platform/http/integration-routes.js';
import type { CalendarSync } from './calendar-sync-service.js';

export interface CalendarSyncRoutesOptions {
  calendarSync: CalendarSync;
}

/** Google's push notifications come from its servers for every synced calendar. */
const notifyLimit = { max: 600, timeWindow: '1 minute' } as const;

const headerText = (value: string | string[] | undefined): string =>
  (Array.isArray(value) ? value[0] : value)?.slice(0, 300) ?? '';

/**
 * `POST /api/calendar-sync/google/notify`: Google's push notification that a watched calendar
 * changed (no body; `X-Goog-Channel-ID`, `X-Goog-Channel-Token`, `X-Goog-Resource-State`,
 * `X-Goog-Resource-ID`). A channel and token of ours → 200 and the calendar is synced at once;
 * anything else → 404 and nothing happens.
 */
export const calendarNotifyRoutes: FastifyPluginAsyncZod<CalendarSyncRoutesOptions> = async (
  app,
  { calendarSync },
) => {
  // Google's notifications carry no body: one that comes with one is not Google's, and is never
  // parsed.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_r, body, done) => {
    if ((body as Buffer).length === 0) done(null, undefined);
    else done(new AppError('validation_failed', 400, 'A calendar notification has no body'));
  });
  app.post(
    '/calendar-sync/google/notify',
    {
      config: { xsrf: false, rateLimit: notifyLimit },
      schema: {
        tags: ['calendar-sync'],
        summary:
          "Google Calendar's push notification (X-Goog-Channel-ID and -Token of a channel Marpe opened): the calendar is synced at once",
        response: { 200: z.object({ status: z.literal('ok') }), 404: errorBodySchema },
      },
    },
    async (request) => {
      const known = await calendarSync.notify({
        channelId: headerText(request.headers['x-goog-channel-id']),
        token: headerText(request.headers['x-goog-channel-token']),
        resourceState: headerText(request.headers['x-goog-resource-state']),
        resourceId: headerText(request.headers['x-goog-resource-id']),
      });
      if (!known) throw new AppError('not_found', 404, 'No such notification channel');
      return { status: 'ok' as const };
    },
  );
};

const tags = ['integration'];

/** `/api/integration/calendar-sync`: whom to share calendars with, each one's state, conflicts. */
export const calendarSyncIntegrationRoutes: FastifyPluginAsyncZod<
  CalendarSyncRoutesOptions
> = async (app, { calendarSync }) => {
  app.addHook('preValidation', refuseNulCharacters);

  app.get(
    '/calendar-sync',
    {
      schema: {
        tags,
        summary:
          "The service account's email to share each caregiver's Google Calendar with, and each synced calendar's state",
        response: { 200: calendarSyncStatusSchema, 401: errorBodySchema },
      },
    },
    async (request) => calendarSync.status(callerOf(request).clinicId),
  );

  app.get(
    '/calendar-sync/conflicts',
    {
      schema: {
        tags,
        summary:
          "Clashes between a caregiver's calendar and Marpe's bookings (Marpe's event deleted, or another event over an appointment), newest first",
        querystring: calendarConflictsQuerySchema,
        response: { 200: calendarConflictListSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => calendarSync.conflicts(callerOf(request).clinicId, request.query.limit),
  );
};

/** One change notification of Graph's (the fields Marpe reads). */
const graphNotificationsSchema = z.object({
  value: z
    .array(
      z
        .object({
          subscriptionId: z.string().max(200),
          clientState: z.string().max(200).optional(),
          lifecycleEvent: z.string().max(60).optional(),
        })
        .passthrough(),
    )
    .max(1000),
});

/**
 * `POST /api/calendar-sync/microsoft/notify`: Microsoft Graph's change notifications. With
 * `?validationToken=`, the subscription handshake: the token answered as it came, text/plain,
 * 200, at once (Graph waits 10 s). Otherwise each notification of a subscription of ours whose
 * `clientState` matches (compared in constant time) syncs its calendar at once, and a lifecycle
 * notification (the same address is the subscription's `lifecycleNotificationUrl`) that it was
 * removed or needs reauthorizing has the next pass renew or replace it; the answer is 202
 * whatever came, so Graph neither retries nor learns which subscriptions exist.
 */
export const calendarMicrosoftNotifyRoutes: FastifyPluginAsyncZod<
  CalendarSyncRoutesOptions
> = async (app, { calendarSync }) => {
  // The handshake comes as text/plain with no body to read.
  app.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: 1024 }, (_r, _b, done) =>
    done(null, undefined),
  );
  app.post(
    '/calendar-sync/microsoft/notify',
    {
      config: { xsrf: false, rateLimit: notifyLimit },
      schema: {
        tags: ['calendar-sync'],
        summary:
          "Microsoft Graph's change notifications for the subscriptions Marpe opened, and their validation handshake",
        querystring: z.object({ validationToken: z.string().max(1024).optional() }),
        body: graphNotificationsSchema.nullish(),
        response: { 200: z.string(), 202: z.null(), 400: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { validationToken } = request.query;
      if (validationToken !== undefined) {
        return reply.status(200).type('text/plain; charset=utf-8').send(validationToken);
      }
      for (const notification of request.body?.value ?? []) {
        await calendarSync.notify({
          channelId: notification.subscriptionId,
          token: notification.clientState ?? '',
          // Every notification (a change, or a lifecycle one: missed, removed, reauthorization)
          // calls for a read.
          resourceState: 'exists',
          resourceId: '',
          ...(notification.lifecycleEvent ? { lifecycle: notification.lifecycleEvent } : {}),
        });
      }
      return reply.status(202).send(null);
    },
  );
};
