import {
  calendarConnectionLinkSchema,
  caregiverCalendarConnectionParamsSchema,
  createCalendarConnectionBodySchema,
  errorBodySchema,
  calendarProviderSchema,
} from '@marpe/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { linkRouteLimit, privateAnswer } from '../../platform/http/private-answer.js';
import { clinicActorOf, refuseNulCharacters } from '../../platform/http/integration-routes.js';
import { CALLBACK_PATH, LinkRefused, type CalendarConnections } from './calendar-connections.js';
import type { CalendarProvider } from './calendar-provider.js';
import {
  choosePage,
  connectPage,
  donePage,
  langOf,
  problemPage,
  problemStatus,
  type ChoiceError,
  type PageLang,
} from './connect-pages.js';

export interface CalendarConnectRoutesOptions {
  connections: CalendarConnections;
  /** The service account's API: a disconnect stops a push channel it opened. */
  serviceAccount: CalendarProvider | null;
}

const tags = ['integration'];

/**
 * `POST|DELETE /api/integration/caregivers/:caregiverId/calendar-connection`: a one-time link for
 * the caregiver to connect their own Google Calendar, and the disconnect.
 */
export const calendarConnectionIntegrationRoutes: FastifyPluginAsyncZod<
  CalendarConnectRoutesOptions
> = async (app, { connections, serviceAccount }) => {
  app.addHook('preValidation', refuseNulCharacters);

  app.post(
    '/caregivers/:caregiverId/calendar-connection',
    {
      schema: {
        tags,
        summary:
          'A one-time link (24 hours, used once; a newer one voids it) for the caregiver to connect their own Google or Microsoft 365 calendar by consent',
        params: caregiverCalendarConnectionParamsSchema,
        body: createCalendarConnectionBodySchema,
        response: {
          201: calendarConnectionLinkSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          404: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const { clinicId, actor } = clinicActorOf(request);
      const link = await connections.createLink(
        clinicId,
        request.params.caregiverId,
        actor,
        request.body.provider,
      );
      return reply.status(201).send(link);
    },
  );

  app.delete(
    '/caregivers/:caregiverId/calendar-connection',
    {
      schema: {
        tags,
        summary:
          "Disconnects the caregiver's calendar: the token revoked at Google, the push channel stopped, the calendar id, mirror and tokens forgotten (204 also when nothing was connected)",
        params: caregiverCalendarConnectionParamsSchema,
        response: {
          204: z.null(),
          400: errorBodySchema,
          401: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const { clinicId, actor } = clinicActorOf(request);
      await connections.disconnect(clinicId, request.params.caregiverId, serviceAccount, actor);
      return reply.status(204).send(null);
    },
  );
};

/** The cookie that ties Google's answer to the browser that opened the link: `<lang>:<token>`. */
const COOKIE = 'marpe_calendar_link';

const tokenParams = z.object({ token: z.string().min(1).max(100) });
const langQuery = z.object({ lang: z.string().max(5).optional() });
/** "Continue" names the provider when the page offered both; absent, the link's own. */
const providerChoice = z.object({ provider: calendarProviderSchema.optional() }).nullish();
const callbackQuery = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(200).optional(),
  error: z.string().max(200).optional(),
  lang: z.string().max(5).optional(),
});
const chooseBody = z.object({ calendar_id: z.string().max(1024).optional() }).passthrough();

function sendPage(reply: FastifyReply, status: number, html: string) {
  return reply.status(status).type('text/html; charset=utf-8').send(html);
}

function cookieOf(request: FastifyRequest): { lang: PageLang; token: string } {
  const value = request.cookies[COOKIE] ?? '';
  const at = value.indexOf(':');
  return at < 0
    ? { lang: 'he', token: '' }
    : { lang: langOf(value.slice(0, at)), token: value.slice(at + 1) };
}

/** A refused link's page; anything else goes on to the error handler (a 500, logged). */
function refused(reply: FastifyReply, lang: PageLang, error: unknown) {
  if (!(error instanceof LinkRefused)) throw error;
  return sendPage(
    reply,
    problemStatus[error.problem],
    problemPage(lang, error.problem, error.provider),
  );
}

/**
 * The caregiver's pages: the link (`/calendar/connect/:token`), "continue" (POST, to Google),
 * Google's answer (`/calendar/oauth/callback`), the choice of calendar
 * (`/calendar/connect/:token/calendar`). No login: the link's token is the key, and from
 * "continue" on, the browser must also hold it in a cookie.
 */
export async function registerCalendarConnectPages(
  app: FastifyInstance,
  options: {
    connections: CalendarConnections;
    /** The consent screens' origins: "continue" may lead to any of them. */
    authorizeOrigins: string[];
    secureCookie: boolean;
  },
): Promise<void> {
  const { connections } = options;
  const cookie = (reply: FastifyReply, lang: PageLang, token: string) =>
    reply.setCookie(COOKIE, `${lang}:${token}`, {
      path: '/calendar',
      httpOnly: true,
      // Lax: sent on Google's redirect back (a top-level GET), never on another site's POST.
      sameSite: 'lax',
      secure: options.secureCookie,
      maxAge: 3600,
    });

  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 8192 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    const typed = scope.withTypeProvider<ZodTypeProvider>();
    const config = { rateLimit: linkRouteLimit };

    typed.get(
      '/calendar/connect/:token',
      {
        onRequest: privateAnswer,
        config: {
          ...config,
          // "Continue" posts here and is sent on to Google: the form may lead there.
          contentSecurityPolicy: { formAction: ["'self'", ...options.authorizeOrigins] },
        },
        schema: { hide: true, params: tokenParams, querystring: langQuery },
      },
      async (request, reply) => {
        const lang = langOf(request.query.lang);
        try {
          const view = await connections.view(request.params.token);
          return sendPage(
            reply,
            200,
            connectPage(lang, {
              token: request.params.token,
              clinicName: view.clinicName,
              caregiverName: view.caregiverName,
              provider: view.link.provider,
              // Both, where the server has both: the caregiver knows where their diary is.
              providers: connections.providers,
            }),
          );
        } catch (error) {
          return refused(reply, lang, error);
        }
      },
    );

    typed.post(
      '/calendar/connect/:token',
      {
        onRequest: privateAnswer,
        config: { ...config, xsrf: false },
        schema: { hide: true, params: tokenParams, querystring: langQuery, body: providerChoice },
      },
      async (request, reply) => {
        const lang = langOf(request.query.lang);
        try {
          const { location } = await connections.startAuthorization(
            request.params.token,
            request.body?.provider,
          );
          cookie(reply, lang, request.params.token);
          return reply.redirect(location, 303);
        } catch (error) {
          return refused(reply, lang, error);
        }
      },
    );

    typed.get(
      CALLBACK_PATH,
      { onRequest: privateAnswer, config, schema: { hide: true, querystring: callbackQuery } },
      async (request, reply) => {
        const { lang, token } = cookieOf(request);
        try {
          await connections.callback({ ...request.query, browser: token });
          return reply.redirect(
            `/calendar/connect/${encodeURIComponent(token)}/calendar${lang === 'en' ? '?lang=en' : ''}`,
            303,
          );
        } catch (error) {
          return refused(reply, lang, error);
        }
      },
    );

    const showChoices = async (
      request: FastifyRequest<{ Params: { token: string }; Querystring: { lang?: string } }>,
      reply: FastifyReply,
      error: ChoiceError,
    ) => {
      const lang = langOf(request.query.lang);
      const { view, calendars } = await connections.choices(
        request.params.token,
        cookieOf(request).token,
      );
      return sendPage(
        reply,
        error === null ? 200 : 409,
        choosePage(lang, {
          token: request.params.token,
          accountEmail: view.link.accountEmail ?? '',
          provider: view.link.provider,
          calendars,
          error,
        }),
      );
    };

    typed.get(
      '/calendar/connect/:token/calendar',
      {
        onRequest: privateAnswer,
        config,
        schema: { hide: true, params: tokenParams, querystring: langQuery },
      },
      async (request, reply) => {
        try {
          return await showChoices(request, reply, null);
        } catch (error) {
          return refused(reply, langOf(request.query.lang), error);
        }
      },
    );

    typed.post(
      '/calendar/connect/:token/calendar',
      {
        onRequest: privateAnswer,
        config: { ...config, xsrf: false },
        schema: { hide: true, params: tokenParams, querystring: langQuery, body: chooseBody },
      },
      async (request, reply) => {
        const lang = langOf(request.query.lang);
        const calendarId = request.body.calendar_id ?? '';
        try {
          const chosen = await connections.choose(
            request.params.token,
            cookieOf(request).token,
            calendarId,
          );
          if (chosen.outcome !== 'connected') {
            return await showChoices(request, reply, chosen.outcome);
          }
          reply.clearCookie(COOKIE, { path: '/calendar' });
          return sendPage(reply, 200, donePage(lang, chosen.summary));
        } catch (error) {
          return refused(reply, lang, error);
        }
      },
    );
  });
}
