import { createFormFilling } from './fill-form.js';
import { createFormLinks } from './form-links.js';
import type { FormsServiceDeps } from './forms-deps.js';
import { createFormRequestReads } from './read-form-requests.js';
import { createFormSubmit } from './submit-form.js';

/**
 * Intake-form links: minted and replaced (form-links), filled in by the patient with a draft
 * (fill-form), submitted (submit-form), and read by the clinic (read-form-requests).
 */
export function createFormsService(deps: FormsServiceDeps) {
  return {
    ...createFormLinks(deps),
    ...createFormFilling(deps),
    ...createFormSubmit(deps),
    ...createFormRequestReads(deps),
  };
}

export type FormsService = ReturnType<typeof createFormsService>;
