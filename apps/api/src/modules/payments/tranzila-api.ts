import { createHmac, randomBytes } from 'node:crypto';
import { CHARGE_REF_FIELD, toAgorot } from '@marpe/shared';

// The card provider's server API (ADR 017): a callback or a browser return is only a hint; a
// charge counts once this API, asked server to server with the clinic's own credentials, says the
// transaction exists, is approved and matches. The demo sandbox answers the same calls
// (sandbox-routes.ts), and tests run it against a loopback fake that checks every header.

/** A clinic's provider API credentials (set through the integration API, the secret sealed). */
export interface ProviderCredentials {
  appKey: string;
  secret: string;
}

/**
 * The provider's authentication headers: the access token is hex HMAC-SHA256, keyed with
 * `secret + time + nonce`, over the app key.
 */
export function tranzilaAuthHeaders(
  credentials: ProviderCredentials,
  unixSeconds: number,
  nonce: string,
): Record<string, string> {
  const time = String(unixSeconds);
  return {
    'X-tranzila-api-app-key': credentials.appKey,
    'X-tranzila-api-request-time': time,
    'X-tranzila-api-nonce': nonce,
    'X-tranzila-api-access-token': createHmac('sha256', `${credentials.secret}${time}${nonce}`)
      .update(credentials.appKey)
      .digest('hex'),
  };
}

/** What we read of one provider transaction. */
export interface ProviderTransaction {
  index: string;
  terminal: string;
  responseCode: string;
  /** null when the sum could not be read as shekels. */
  amountAgorot: number | null;
  /** ISO 4217 letters or the provider's number ('1' is shekels). */
  currency: string;
  payments: number;
  /**
   * The request reference the frame was opened with (CHARGE_REF_FIELD), as the provider kept it
   * with the charge; null when its answer has none.
   */
  reference: string | null;
}

/** The provider could not be asked (network, timeout, 5xx): the outbox tries again later. */
export class ProviderUnavailableError extends Error {
  override name = 'ProviderUnavailableError';
}

export interface TranzilaApi {
  /** The transaction of `index` on `terminal`, or null when the provider has none. */
  findTransaction(
    credentials: ProviderCredentials,
    terminal: string,
    index: string,
  ): Promise<{ transaction: ProviderTransaction | null; answer: Record<string, unknown> }>;
  /** A handshake token (`thtk`) pinning the frame of `terminal` to this sum. */
  createHandshake(
    credentials: ProviderCredentials,
    terminal: string,
    sumAgorot: number,
  ): Promise<string>;
}

/** How a request reaches the provider: `fetch`, or the demo sandbox in-process. */
export type ProviderTransport = (url: string, init: RequestInit) => Promise<Response>;

export interface TranzilaApiOptions {
  /** Without the trailing slash: https://api.tranzila.com, or the demo sandbox. */
  baseUrl: string;
  /** Default `fetch`. */
  transport?: ProviderTransport;
  /** Epoch milliseconds. */
  clock: () => number;
  timeoutMs?: number;
}

const text = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';

/** One transaction of the provider's answer, read leniently (numbers or strings). */
function readTransaction(raw: Record<string, unknown>): ProviderTransaction {
  const amount = Number(text(raw.amount ?? raw.sum));
  const payments = Number(text(raw.number_of_payments ?? raw.payments ?? '1'));
  return {
    index: text(raw.index ?? raw.transaction_index),
    terminal: text(raw.terminal_name ?? raw.terminal),
    responseCode: text(raw.processor_response_code ?? raw.response_code),
    amountAgorot: Number.isFinite(amount) ? toAgorot(amount) : null,
    currency: text(raw.currency_code ?? raw.currency),
    payments: Number.isInteger(payments) && payments > 0 ? payments : 1,
    reference: text(raw[CHARGE_REF_FIELD]) || null,
  };
}

/** The provider's answer without anything card-like, to be stored. */
function storable(answer: unknown): Record<string, unknown> {
  const json = JSON.stringify(answer ?? {}, (key, value: unknown) =>
    /card|ccno|cvv|expdate|mycvv|token/i.test(key) ? undefined : value,
  );
  return JSON.parse(json) as Record<string, unknown>;
}

export function createTranzilaApi(options: TranzilaApiOptions): TranzilaApi {
  const { baseUrl, clock } = options;
  const transport = options.transport ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function post(
    credentials: ProviderCredentials,
    path: string,
    body: object,
  ): Promise<Record<string, unknown>> {
    const headers = tranzilaAuthHeaders(
      credentials,
      Math.floor(clock() / 1000),
      randomBytes(16).toString('hex'),
    );
    let response: Response;
    try {
      response = await transport(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new ProviderUnavailableError(`provider API unreachable (${(error as Error).name})`);
    }
    if (response.status >= 500 || response.status === 429) {
      throw new ProviderUnavailableError(`provider API answered ${response.status}`);
    }
    let json: unknown;
    try {
      json = await response.json();
    } catch {
      throw new ProviderUnavailableError(`provider API answered ${response.status} without JSON`);
    }
    if (!response.ok) {
      // 4xx: our request or credentials are wrong; retrying will not change that, but a clinic
      // may fix its credentials, so it is retried like an outage and logged.
      throw new ProviderUnavailableError(`provider API refused the request (${response.status})`);
    }
    return (json ?? {}) as Record<string, unknown>;
  }

  return {
    async findTransaction(credentials, terminal, index) {
      const answer = await post(credentials, '/v1/transactions', {
        terminal_name: terminal,
        transaction_index: index,
      });
      const list = Array.isArray(answer.transactions) ? answer.transactions : [];
      const found = list
        .filter((t): t is Record<string, unknown> => typeof t === 'object' && t !== null)
        .map(readTransaction)
        .find((t) => t.index === index);
      return { transaction: found ?? null, answer: storable(answer) };
    },

    async createHandshake(credentials, terminal, sumAgorot) {
      const answer = await post(credentials, '/v1/handshake/create', {
        terminal_name: terminal,
        sum: (sumAgorot / 100).toFixed(2),
      });
      const thtk = text(answer.thtk);
      if (!/^[\w-]{8,200}$/.test(thtk)) {
        throw new ProviderUnavailableError('provider API answered no handshake token');
      }
      return thtk;
    },
  };
}
