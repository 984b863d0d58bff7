import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isPublicAddress, isRefusedHost } from './webhook-url.js';

/** Resolves a host name to all its addresses (`dns.lookup` with `all: true` unless injected). */
export type ResolveHost = (hostname: string) => Promise<LookupAddress[]>;

export const resolveWithDns: ResolveHost = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    );
  });

/** The clinic-visible reason a delivery was not sent: never the address or the network error. */
export const NOT_PUBLIC_ADDRESS = 'refused: not a public address';

/** Thrown (as the connection's error) when the host is or resolves to a non-public address. */
export class NotPublicAddressError extends Error {
  constructor() {
    super(NOT_PUBLIC_ADDRESS);
    this.name = 'NotPublicAddressError';
  }
}

export class WebhookTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`No answer within ${timeoutMs / 1000} s`);
    this.name = 'TimeoutError';
  }
}

/**
 * The socket's `lookup`: resolves, and with `publicOnly` refuses when any of the addresses is not
 * public. Judging the addresses the socket then connects to (not an earlier lookup of the same
 * name) is what catches DNS rebinding; refusing on any, not only the first, keeps the connection
 * from falling back to a private one (Happy Eyeballs tries several).
 */
export function guardedLookup(resolve: ResolveHost, publicOnly: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (all) => {
        const addresses = options.family
          ? all.filter((address) => address.family === options.family)
          : all;
        const first = addresses[0];
        if (publicOnly && addresses.some((address) => !isPublicAddress(address.address))) {
          callback(new NotPublicAddressError(), '', 0);
        } else if (!first) {
          const error: NodeJS.ErrnoException = new Error(`No address for ${hostname}`);
          error.code = 'ENOTFOUND';
          callback(error, '', 0);
        } else if (options.all) {
          (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(
            null,
            addresses,
          );
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

export interface WebhookPost {
  url: string;
  headers: OutgoingHttpHeaders;
  body: string;
  timeoutMs: number;
  lookup: LookupFunction;
  publicOnly: boolean;
}

/**
 * POSTs and resolves with the answer's status (the body is discarded, redirects are not
 * followed: a redirect is for the receiver to fix). Rejects with NotPublicAddressError,
 * WebhookTimeoutError (no complete answer in time) or the network error.
 */
export function postWebhook(post: WebhookPost): Promise<number> {
  const url = new URL(post.url);
  // A literal address is connected to without a lookup: judged here instead.
  if (post.publicOnly && isRefusedHost(url.hostname)) {
    return Promise.reject(new NotPublicAddressError());
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<number>((resolve, reject) => {
    const request = send(url, {
      method: 'POST',
      headers: { ...post.headers, 'content-length': Buffer.byteLength(post.body) },
      lookup: post.lookup,
    });
    const timer = setTimeout(
      () => request.destroy(new WebhookTimeoutError(post.timeoutMs)),
      post.timeoutMs,
    );
    request.on('response', (response) => {
      clearTimeout(timer);
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.end(post.body);
  });
}
