import type {
  ClinicBusyTime,
  Closure,
  IntegrationAppointment,
  IntegrationCaregiver,
} from '@marpe/shared';
import { useMemo } from 'react';
import { localParts, minutesOf, windowOf, type DiaryView } from './clinic-time';
import { appointmentEvents, busyEvents, shownCaregivers } from './diary-events';
import { hoursToShow, openIntervals, workingMinutes, type Interval } from './working-hours';

/**
 * What the diary's grid draws for the days shown: the caregivers side by side, their appointments
 * and busy times, when each works, and the hours wide enough for all of it.
 */
export function useDiaryGrid({
  zone,
  view,
  date,
  caregivers,
  caregiverId,
  closures,
  appointments,
  busy,
}: {
  zone: string;
  view: DiaryView;
  date: string;
  caregivers: IntegrationCaregiver[];
  caregiverId: number | null;
  closures: Closure[];
  appointments: IntegrationAppointment[] | undefined;
  busy: ClinicBusyTime[] | undefined;
}) {
  const range = useMemo(() => windowOf(view, date, zone), [view, date, zone]);
  const closedDates = useMemo(() => new Set(closures.map((c) => c.date)), [closures]);
  const shown = useMemo(
    () => shownCaregivers(caregivers, caregiverId, appointments ?? []),
    [caregivers, caregiverId, appointments],
  );
  const events = useMemo(
    () => appointmentEvents(appointments ?? [], caregiverId),
    [appointments, caregiverId],
  );
  // Busy times come for a window wider than the days shown (asked before the zone was known).
  const background = useMemo(() => {
    const from = Date.parse(range.from);
    const to = Date.parse(range.to);
    const inView = (busy ?? []).filter((b) => Date.parse(b.end) > from && Date.parse(b.start) < to);
    return busyEvents(inView, shown);
  }, [busy, shown, range.from, range.to]);
  const open = useMemo(() => {
    const map = new Map<number, Interval[]>();
    for (const caregiver of shown) {
      map.set(caregiver.id, openIntervals(caregiver.marpe_rules, range.dates, zone, closedDates));
    }
    return map;
  }, [shown, range.dates, zone, closedDates]);
  const hours = useMemo(() => {
    const minutes: number[] = [];
    for (const caregiver of shown) {
      for (const day of range.dates) {
        for (const [s, e] of workingMinutes(caregiver.marpe_rules, day)) minutes.push(s, e);
      }
    }
    for (const event of [...events, ...background]) {
      const start = localParts(event.start.getTime(), zone);
      const end = localParts(event.end.getTime(), zone);
      minutes.push(minutesOf(start.time));
      minutes.push(end.date > start.date ? 24 * 60 : minutesOf(end.time));
    }
    return hoursToShow(minutes);
  }, [shown, range.dates, events, background, zone]);

  return { range, closedDates, shown, events, background, open, hours };
}
