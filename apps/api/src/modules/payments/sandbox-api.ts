import { randomBytes } from 'node:crypto';
import { CHARGE_REF_FIELD, formatProviderSum } from '@marpe/shared';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { safeEqual } from '../../platform/crypto.js';
import { AppError } from '../../platform/errors.js';
import {
  tranzilaAuthHeaders,
  type ProviderCredentials,
  type ProviderTransport,
} from './tranzila-api.js';

/** Where the sandbox's provider API is mounted. */
export const SANDBOX_API_PREFIX = '/api/sandbox/tranzila-api';

/**
 * The provider API requests of the demo, answered by this same app in-process: the public origin
 * may be a name this machine cannot reach (a demo behind a tunnel, the test suite's).
 */
export function injectTransport(app: FastifyInstance): ProviderTransport {
  return async (url, init) => {
    const answer = await app.inject({
      method: 'POST',
      url,
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      payload: typeof init.body === 'string' ? init.body : '',
    });
    return new Response(answer.body, {
      status: answer.statusCode,
      headers: { 'content-type': String(answer.headers['content-type'] ?? 'application/json') },
    });
  };
}

// Demo mode only: the card provider's server API as the sandbox frame sees it, so a demo payment
// is confirmed the way a real one is (POST /v1/transactions, /v1/handshake/create, the same
// authentication headers). It knows the charges its own frame made since the server started.

/** A charge the sandbox frame made, as /v1/transactions answers it. */
export interface SandboxTransaction {
  index: string;
  terminal: string;
  responseCode: string;
  amountAgorot: number;
  payments: number;
  /** The request reference the frame was opened with; '' when none. */
  reference: string;
}

export interface SandboxLedger {
  record(transaction: SandboxTransaction): void;
  find(terminal: string, index: string): SandboxTransaction | undefined;
  /** A new handshake token pinning `terminal` to `amountAgorot`. */
  pin(terminal: string, amountAgorot: number): string;
  /** The sum a handshake token pins, or undefined for an unknown token or another terminal. */
  pinned(terminal: string, thtk: string): number | undefined;
}

export function createSandboxLedger(): SandboxLedger {
  const transactions = new Map<string, SandboxTransaction>();
  const handshakes = new Map<string, { terminal: string; amountAgorot: number }>();
  return {
    record(transaction) {
      transactions.set(`${transaction.terminal}:${transaction.index}`, transaction);
    },
    find(terminal, index) {
      return transactions.get(`${terminal}:${index}`);
    },
    pin(terminal, amountAgorot) {
      const thtk = randomBytes(18).toString('base64url');
      handshakes.set(thtk, { terminal, amountAgorot });
      return thtk;
    },
    pinned(terminal, thtk) {
      const handshake = handshakes.get(thtk);
      return handshake?.terminal === terminal ? handshake.amountAgorot : undefined;
    },
  };
}

export interface SandboxApiOptions {
  ledger: SandboxLedger;
  /** The API credentials the demo clinic is given (demo/demo-payment.ts). */
  credentials: ProviderCredentials;
  /** Epoch milliseconds. */
  clock: () => number;
}

const MAX_CLOCK_SKEW_S = 300;

const transactionsBody = z.object({ terminal_name: z.string(), transaction_index: z.string() });
const handshakeBody = z.object({ terminal_name: z.string(), sum: z.string() });

export const sandboxApiRoutes: FastifyPluginAsyncZod<SandboxApiOptions> = async (
  app,
  { ledger, credentials, clock },
) => {
  // Checked as the provider would: the app key, a fresh time, and the HMAC of them (after the
  // body is parsed, so a malformed body is a 400 like on every route).
  app.addHook('preValidation', (request, _reply, done) => {
    const header = (name: string) => String(request.headers[name.toLowerCase()] ?? '');
    const time = Number(header('X-tranzila-api-request-time'));
    const nonce = header('X-tranzila-api-nonce');
    const expected = tranzilaAuthHeaders(credentials, time, nonce)['X-tranzila-api-access-token'];
    const fresh = Math.abs(clock() / 1000 - time) <= MAX_CLOCK_SKEW_S;
    if (
      header('X-tranzila-api-app-key') !== credentials.appKey ||
      !fresh ||
      nonce.length < 8 ||
      !safeEqual(header('X-tranzila-api-access-token'), expected ?? '')
    ) {
      done(new AppError('unauthorized', 401, 'Sandbox: bad provider API authentication'));
      return;
    }
    done();
  });

  app.post(
    '/v1/transactions',
    {
      config: { xsrf: false },
      schema: {
        tags: ['dev'],
        summary: "Demo mode only: the card provider's transaction lookup, for sandbox charges",
        body: transactionsBody,
      },
    },
    async (request) => {
      const found = ledger.find(request.body.terminal_name, request.body.transaction_index);
      return {
        error_code: 0,
        transactions: found
          ? [
              {
                index: found.index,
                terminal_name: found.terminal,
                processor_response_code: found.responseCode,
                amount: formatProviderSum(found.amountAgorot),
                currency_code: '1',
                number_of_payments: found.payments,
                // Kept with the charge and returned, as the provider does with the frame's
                // extra parameters.
                ...(found.reference ? { [CHARGE_REF_FIELD]: found.reference } : {}),
              },
            ]
          : [],
      };
    },
  );

  app.post(
    '/v1/handshake/create',
    {
      config: { xsrf: false },
      schema: {
        tags: ['dev'],
        summary: "Demo mode only: the card provider's handshake, pinning a frame to a sum",
        body: handshakeBody,
      },
    },
    async (request) => {
      const sum = Math.round(Number(request.body.sum) * 100);
      if (!Number.isSafeInteger(sum) || sum < 1) {
        throw new AppError('validation_failed', 400, 'sum is not a sum', {
          issues: [{ path: 'sum', message: 'is not a sum' }],
        });
      }
      return { thtk: ledger.pin(request.body.terminal_name, sum) };
    },
  );
};
