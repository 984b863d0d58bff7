/** Week days in the order the clinic page lists them (the Israeli week starts on Sunday). */
export const weekDays = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
] as const;

export type WeekDay = (typeof weekDays)[number];
