import { randomInt } from 'node:crypto';
import { PAYMENT_SUCCESS_CODE } from '@marpe/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { framableBySelf } from '../../platform/http/security-headers.js';
import { privateAnswer } from '../../platform/http/private-answer.js';
import { acceptFormBodies, PROVIDER_BODY_LIMIT } from './patient-routes.js';
import { providerFieldsOf } from './provider-fields.js';
import type { SandboxLedger } from './sandbox-api.js';
import {
  parseSandboxCharge,
  renderSandboxError,
  renderSandboxPage,
  sandboxCallback,
  sandboxCards,
  sandboxReturnFields,
} from './sandbox-page.js';

export interface SandboxRoutesOptions {
  /** Where the sandbox keeps its charges and handshakes, for its provider API (sandbox-api.ts). */
  ledger: SandboxLedger;
  /**
   * config.publicOrigin: with the origin the sandbox page is reached at, the only origins the
   * sandbox notifies (in-process) and sends the browser back to.
   */
  publicOrigin: string;
}

const paramsSchema = z.object({ terminal: z.string().min(1).max(64) });
const fieldsSchema = z.record(z.string(), z.unknown());

function sendHtml(reply: FastifyReply, status: number, html: string): void {
  void reply.status(status).type('text/html; charset=utf-8').send(html);
}

/** Our public origin, and the one this request reached us at (a second name, 127.0.0.1 in tests). */
function ownOrigins(request: FastifyRequest, publicOrigin: string): string[] {
  try {
    return [publicOrigin, new URL(`${request.protocol}://${request.host}`).origin];
  } catch {
    return [publicOrigin];
  }
}

const describeProblems = (problems: readonly string[]) =>
  `הפרמטרים של הבקשה אינם תקינים: ${[...new Set(problems)].join(', ')}`;

/**
 * Demo mode only (registered when `config.demo`): the card provider's frame at the same path
 * shape, `/api/sandbox/:terminal/iframenew.php`. GET shows the charge and the test cards; the
 * POST "charges" the chosen card: it sends our notify address the provider's form-encoded
 * callback, in-process, then sends the browser to the success or fail address with the result
 * fields, as the provider does. Both pages may be framed by our own pages only.
 */
export const sandboxRoutes: FastifyPluginAsyncZod<SandboxRoutesOptions> = async (
  app,
  { publicOrigin, ledger },
) => {
  /** A frame opened with a handshake token must charge the sum the token pins. */
  const handshakeProblems = (charge: { terminal: string; amountAgorot: number }, thtk?: string) =>
    thtk !== undefined &&
    thtk !== '' &&
    ledger.pinned(charge.terminal, thtk) !== charge.amountAgorot
      ? ['thtk']
      : [];
  acceptFormBodies(app);
  // The provider's transaction index: a number, unique and increasing (from the time in
  // seconds, so a restarted demo does not reuse one).
  let lastIndex = 0;
  const nextIndex = () =>
    String((lastIndex = Math.max(lastIndex + 1, Math.floor(Date.now() / 1000))));
  const path = '/sandbox/:terminal/iframenew.php';
  const actionOf = (terminal: string) =>
    `/api/sandbox/${encodeURIComponent(terminal)}/iframenew.php`;

  app.get(
    path,
    {
      onRequest: privateAnswer,
      config: { contentSecurityPolicy: framableBySelf },
      schema: {
        tags: ['dev'],
        summary:
          "Demo mode only: a test stand-in for the card provider's frame (same parameters); no card is charged",
        params: paramsSchema,
        querystring: fieldsSchema,
      },
    },
    (request, reply) => {
      const { terminal } = request.params;
      const parsed = parseSandboxCharge(
        terminal,
        providerFieldsOf(request.query),
        ownOrigins(request, publicOrigin),
      );
      const fields = providerFieldsOf(request.query);
      const problems = parsed.ok ? handshakeProblems(parsed.charge, fields.thtk) : parsed.problems;
      if (!parsed.ok || problems.length > 0) {
        sendHtml(reply, 400, renderSandboxError(describeProblems(problems)));
        return;
      }
      sendHtml(reply, 200, renderSandboxPage(parsed.charge, actionOf(terminal)));
    },
  );

  app.post(
    path,
    {
      onRequest: privateAnswer,
      bodyLimit: PROVIDER_BODY_LIMIT,
      // The sandbox stands in for the provider's own site, which our anti-forgery token cannot
      // reach; demo mode only.
      config: { xsrf: false, contentSecurityPolicy: framableBySelf },
      schema: {
        tags: ['dev'],
        summary:
          'Demo mode only: pays with the chosen test card: our notify callback, then 303 to the success or fail address',
        params: paramsSchema,
        body: fieldsSchema.optional(),
      },
    },
    async (request, reply) => {
      const { terminal } = request.params;
      const fields = providerFieldsOf(request.body);
      const parsed = parseSandboxCharge(terminal, fields, ownOrigins(request, publicOrigin));
      const card = sandboxCards.find((c) => c.response === fields.card);
      const pinning = parsed.ok ? handshakeProblems(parsed.charge, fields.thtk) : [];
      if (!parsed.ok || !card || pinning.length > 0) {
        const problems = parsed.ok ? pinning : parsed.problems;
        sendHtml(
          reply,
          400,
          renderSandboxError(describeProblems(card ? problems : [...problems, 'card'])),
        );
        return reply;
      }
      const { charge } = parsed;
      const callback = sandboxCallback(
        charge,
        card,
        nextIndex(),
        String(randomInt(1_000_000, 10_000_000)),
      );
      ledger.record({
        index: callback.index ?? '',
        terminal: charge.terminal,
        responseCode: card.response,
        amountAgorot: charge.amountAgorot,
        payments: charge.credType === '8' ? charge.npay + 1 : 1,
        reference: charge.reference,
      });
      // Server to server, as the provider would, without leaving the process.
      const notified = await app.inject({
        method: 'POST',
        url: charge.notifyPath,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(callback).toString(),
      });
      if (notified.statusCode < 200 || notified.statusCode > 299) {
        request.log.warn({ status: notified.statusCode }, 'sandbox notify callback refused');
        sendHtml(
          reply,
          502,
          renderSandboxError(`כתובת העדכון החזירה שגיאה (${notified.statusCode}); התשלום לא נרשם.`),
        );
        return reply;
      }
      const back = new URL(
        card.response === PAYMENT_SUCCESS_CODE ? charge.successUrl : charge.failUrl,
      );
      for (const [key, value] of Object.entries(sandboxReturnFields(callback))) {
        back.searchParams.append(key, value);
      }
      return reply.status(303).header('location', back.toString()).send();
    },
  );
};
