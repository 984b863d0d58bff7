import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the fake received it. */
export interface LoopbackRequest {
  method: string;
  /** The request target as sent: path and query. */
  url: string;
  /** The path without the query. */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The body, read as UTF-8. */
  body: string;
}

export interface LoopbackAnswer {
  status: number;
  /** An object is sent as JSON, a string as it is; none sends an empty body. */
  body?: object | string;
  headers?: Record<string, string>;
}

export interface Loopback {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  url(path: string): string;
  /** Every request received, oldest first. */
  requests: LoopbackRequest[];
  /** Forgets the requests and drops the connections of those left unanswered. */
  reset(): void;
  close(): Promise<void>;
}

/**
 * A fake HTTP service on loopback for the API to call out to: records every request and answers
 * what `respond` returns for it, or nothing at all for `null` (the client's timeout is the test).
 */
export async function startLoopback(
  respond: (request: LoopbackRequest) => LoopbackAnswer | null | Promise<LoopbackAnswer | null>,
): Promise<Loopback> {
  const requests: LoopbackRequest[] = [];
  const unanswered = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = req.url ?? '/';
      const parsed = new URL(url, 'http://loopback.test');
      const request: LoopbackRequest = {
        method: req.method ?? '',
        url,
        path: parsed.pathname,
        query: Object.fromEntries(parsed.searchParams),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      // A fake may answer after calling out itself (Graph's subscription handshake).
      void Promise.resolve(respond(request)).then((answer) => reply(res, answer));
    });
  });
  const reply = (res: ServerResponse, answer: LoopbackAnswer | null) => {
    if (!answer) {
      unanswered.add(res);
      res.on('close', () => unanswered.delete(res));
      return;
    }
    const { status, body, headers } = answer;
    if (typeof body === 'object') {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    } else {
      res.writeHead(status, headers).end(body);
    }
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: (path) => `${origin}${path}`,
    requests,
    reset() {
      requests.length = 0;
      // Idle keep-alive connections stay: the client may be about to reuse one for its next call.
      for (const res of unanswered) res.destroy();
      unanswered.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What a provider's in-memory stand-in (Google's, Microsoft Graph's) is asked and answers. */
interface StandIn {
  handle(request: {
    method: string;
    path: string;
    query: Record<string, string>;
    headers: IncomingHttpHeaders;
    body: string;
  }):
    | { status: number; body?: object; headers?: Record<string, string> }
    | Promise<{
        status: number;
        body?: object;
        headers?: Record<string, string>;
      }>;
}

/** A provider's stand-in behind loopback, so the API reaches it over HTTP as it would the real one. */
export function startStandInLoopback(standIn: StandIn): Promise<Loopback> {
  return startLoopback(async (request) => {
    const answer = await standIn.handle({
      method: request.method,
      path: request.path,
      query: request.query,
      headers: request.headers,
      body: request.body,
    });
    // A 204 carries no body, whatever the stand-in put there.
    return answer.status === 204 || answer.body === undefined
      ? { status: answer.status, ...(answer.headers ? { headers: answer.headers } : {}) }
      : answer;
  });
}
