import { z } from 'zod';

/**
 * For the browser: zod compiles object parsers with `new Function` and probes for it first. Our
 * CSP has no 'unsafe-eval', so the probe fails (harmlessly) but Chrome reports it as a policy
 * violation on every page that parses with zod. Called once by those pages; the API keeps the JIT.
 */
export function disableZodJit(): void {
  z.config({ jitless: true });
}
