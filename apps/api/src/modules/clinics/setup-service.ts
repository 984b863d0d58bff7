import { createClinicProfile } from './clinic-profile.js';
import { createSetupAppointmentTypes } from './setup-appointment-types.js';
import { createSetupCaregivers } from './setup-caregivers.js';
import type { ClinicServiceDeps } from './setup-steps.js';

/**
 * The integration API's clinic setup: profile and settings, caregivers with their schedules and
 * rules, and appointment types. Every write runs in one transaction with its audit entry, then
 * drops the clinic's cached public page.
 */
export function createClinicService(deps: ClinicServiceDeps) {
  return {
    ...createClinicProfile(deps),
    ...createSetupCaregivers(deps),
    ...createSetupAppointmentTypes(deps),
  };
}

export type ClinicService = ReturnType<typeof createClinicService>;
