// The one retry delay of every background job (docs/decisions/044-worker-loop-and-backoff.md):
// exponential with "full jitter" (a uniform draw below the exponential ceiling, AWS Architecture
// Blog, "Exponential Backoff And Jitter"). Of the usual formulas it spreads the retries of work
// that failed together the most, which is what an outage of a provider produces.

export interface Backoff {
  /** The ceiling of the first retry's delay (ms); each further failure doubles it… */
  firstMs: number;
  /** …up to this (ms). */
  maxMs: number;
}

/**
 * The delay before the next try after `failures` failed tries in a row (1 for the first): a
 * uniform draw in [0, min(maxMs, firstMs · 2^(failures − 1))], rounded to the millisecond.
 * `random` (in [0, 1)) is injected by tests.
 */
export function backoffDelayMs(
  { firstMs, maxMs }: Backoff,
  failures: number,
  random: () => number = Math.random,
): number {
  // 2^30 already passes every cap in use; the bound keeps the power finite.
  const exponent = Math.min(Math.max(failures - 1, 0), 30);
  const ceiling = Math.min(firstMs * 2 ** exponent, maxMs);
  return Math.round(ceiling * random());
}
