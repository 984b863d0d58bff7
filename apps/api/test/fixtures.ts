import type { OpeningHours } from '@marpe/shared';

/** Opening hours of a clinic that is closed all week: the smallest valid value for test rows. */
export const closedWeek: OpeningHours['days'] = {
  sunday: null,
  monday: null,
  tuesday: null,
  wednesday: null,
  thursday: null,
  friday: null,
  saturday: null,
};
