import type { SetupChecklist, SetupStep } from '@marpe/shared';
import { api } from '../../../lib/api';

/** Marks a set-up step done or not done; the server answers the checklist. */
export const markStep = (step: SetupStep, done: boolean) =>
  api<SetupChecklist>(`/api/integration/setup/steps/${step}`, { method: 'PUT', body: { done } });
