import { weekDays, type OpeningHours, type WeekDay } from '@marpe/shared';

/** One day of the weekly grid: open or closed, and its hours (kept while closed, for reopening). */
export interface DayHours {
  open: boolean;
  start: string;
  end: string;
}

/** The opening-hours form: the title the clinic page shows over them, and each day. */
export interface HoursForm {
  title: string;
  days: Record<WeekDay, DayHours>;
}

/** What a day the clinic never opened shows when it is switched open. */
export const defaultDayHours = { start: '08:00', end: '16:00' } as const;

/**
 * The form of the clinic's stored hours. A closed day offers the hours of the nearest open day
 * before it (else the first open one, else 08:00–16:00), so opening it is one click for most
 * clinics, whose days look alike.
 */
export function hoursFormOf(hours: OpeningHours): HoursForm {
  const open = weekDays.flatMap((day) => {
    const range = hours.days[day];
    return range ? [{ day, range }] : [];
  });
  const days = {} as Record<WeekDay, DayHours>;
  weekDays.forEach((day, index) => {
    const range = hours.days[day];
    if (range) {
      days[day] = { open: true, start: range.start, end: range.end };
      return;
    }
    const before = [...open].reverse().find((o) => weekDays.indexOf(o.day) < index);
    const like = (before ?? open[0])?.range ?? defaultDayHours;
    days[day] = { open: false, start: like.start, end: like.end };
  });
  return { title: hours.title ?? '', days };
}

/** The hours to save: a closed day is null; an empty title is none (the page's default). */
export function openingHoursOf(form: HoursForm): OpeningHours {
  const days = {} as OpeningHours['days'];
  for (const day of weekDays) {
    const { open, start, end } = form.days[day];
    days[day] = open ? { start, end } : null;
  }
  const title = form.title.trim();
  return { title: title === '' ? null : title, days };
}

/** Opens or closes a day, keeping its hours. */
export function setDayOpen(form: HoursForm, day: WeekDay, open: boolean): HoursForm {
  return { ...form, days: { ...form.days, [day]: { ...form.days[day], open } } };
}

export function setDayTime(
  form: HoursForm,
  day: WeekDay,
  edge: 'start' | 'end',
  value: string,
): HoursForm {
  return { ...form, days: { ...form.days, [day]: { ...form.days[day], [edge]: value } } };
}

/** Gives every other open day the hours of `from`: "the same hours all week". */
export function copyToOpenDays(form: HoursForm, from: WeekDay): HoursForm {
  const { start, end } = form.days[from];
  const days = { ...form.days };
  for (const day of weekDays) {
    if (day !== from && days[day].open) days[day] = { ...days[day], start, end };
  }
  return { ...form, days };
}

/** The open days, in week order. */
export const openDays = (form: HoursForm): WeekDay[] => weekDays.filter((d) => form.days[d].open);

/**
 * The API names a field of the hours as `opening_hours.days.sunday.end`; the form as
 * `days.sunday.end`.
 */
export function formPathOf(apiPath: string): string {
  return apiPath.replace(/^opening_hours\./, '');
}
