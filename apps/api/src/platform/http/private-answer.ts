import type { onRequestHookHandler } from 'fastify';

/**
 * For answers that hold a patient's details or a link token (or whose address does): never
 * cached on the way, never sent on as a referrer. Set on request, so error answers carry it too.
 */
export const privateAnswer: onRequestHookHandler = (_request, reply, done) => {
  reply.header('cache-control', 'no-store');
  reply.header('referrer-policy', 'no-referrer');
  done();
};

/**
 * Calls per client address per minute of each public link-token route (a form or payment link
 * opened, submitted, returned to). A patient makes a handful; a clinic's shared connection many
 * patients' worth. Guessing a 256-bit token is hopeless anyway: this protects the database.
 */
export const linkRouteLimit = { max: 120, timeWindow: '1 minute' } as const;
