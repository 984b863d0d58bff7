// `@marpe/shared/rules`: the rules and constants of the contract that hold no schema, for the
// browser. Nothing reached from here imports zod (rules.test.ts), so a page that imports from here
// does not fetch zod; the schema modules build on these rules and index.ts exports both.
export * from './week-days.js';
export * from './clinic-name.js';
export * from './patient-pages.js';
export * from './identity.js';
export * from './patient-auth-rules.js';
export * from './waitlist-rules.js';
export * from './email.js';
export * from './payments-rules.js';
export * from './forms/dates.js';
export * from './forms/text.js';
export * from './forms/mask.js';
export * from './forms/signature.js';
export * from './forms/validation.js';
export * from './forms/registry.js';
export * from './forms/engine.js';
export * from './forms/input-data.js';
export * from './forms/safe-html.js';
export * from './integration/connections-rules.js';
