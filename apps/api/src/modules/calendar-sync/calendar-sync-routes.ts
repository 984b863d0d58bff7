import {
  calendarConflictListSchema,
  calendarConflictsQuerySchema,
  calendarSyncStatusSchema,
  errorBodySchema,
} from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../platform/errors.js';
import { callerOf, refuseNulCharacters } from '../integration/integration-auth.js';
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
