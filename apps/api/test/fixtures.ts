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

/** The columns a test clinic needs (closed all week); spread it and add what the test is about. */
export function clinicRow(name: string) {
  return {
    name,
    phone: '03-5550000',
    street: 'הרצל',
    homeNumber: '12',
    city: 'תל אביב-יפו',
    openingHours: { title: null, days: closedWeek },
  };
}
