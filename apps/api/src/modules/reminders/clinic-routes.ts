import {
  errorBodySchema,
  integrationIdParamsSchema,
  integrationRemindersSchema,
  reminderSettingsSchema,
} from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isStoredId } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { actorOf, callerOf } from '../../platform/http/integration-routes.js';
import type { Reminders } from './reminders-service.js';

export interface RemindersRoutesOptions {
  reminders: Reminders;
}

const tags = ['integration'];
const readErrors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

/**
 * `/api/integration/reminders/settings` and `/api/integration/appointments/:id/reminders`: the
 * clinic of the key sets its reminders and reads which went out (docs/integration.md, "Reminders").
 */
export const remindersRoutes: FastifyPluginAsyncZod<RemindersRoutesOptions> = async (
  app,
  { reminders },
) => {
  app.get(
    '/reminders/settings',
    {
      schema: {
        tags,
        summary: "The clinic's appointment reminders: on or off, lead times, channel, quiet hours",
        response: { 200: reminderSettingsSchema, 401: errorBodySchema },
      },
    },
    async (request) => reminders.getSettings(callerOf(request).clinicId),
  );

  app.put(
    '/reminders/settings',
    {
      schema: {
        tags,
        summary:
          'Replaces the reminder settings; every upcoming appointment is planned again by them (a lead time already passed gets no late reminder)',
        body: reminderSettingsSchema,
        response: { 200: reminderSettingsSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return reminders.saveSettings(
        { clinicId: caller.clinicId, actor: actorOf(caller) },
        request.body,
      );
    },
  );

  app.get(
    '/appointments/:id/reminders',
    {
      schema: {
        tags,
        summary:
          "An appointment's reminders, by due time: scheduled, sent (with the channel), withdrawn or missed",
        params: integrationIdParamsSchema,
        response: { 200: integrationRemindersSchema, ...readErrors },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!isStoredId(id)) {
        throw new AppError('appointment_not_found', 404, 'No such appointment in this clinic');
      }
      return reminders.list(callerOf(request).clinicId, id);
    },
  );
};
