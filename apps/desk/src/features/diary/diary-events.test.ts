import type { ClinicBusyTime, IntegrationAppointment, IntegrationCaregiver } from '@marpe/shared';
import { describe, expect, it } from 'vitest';
import { appointmentEvents, busyEvents, shownCaregivers } from './diary-events';

const caregiver = (id: number, sortOrder: number, isActive = true) =>
  ({ id, name: `c${id}`, sort_order: sortOrder, is_active: isActive }) as IntegrationCaregiver;

const appointment = (id: number, caregiverId: number, status: 'booked' | 'cancelled' = 'booked') =>
  ({
    id,
    status,
    start_date: '2027-03-25T09:00:00+02:00',
    end_date: '2027-03-25T09:30:00+02:00',
    caregiver: { id: caregiverId, name: `c${caregiverId}` },
    appointment_type: { id: 1, name: 'בדיקה' },
    patient: { id: 1, id_number: '1', first_name: 'דנה', last_name: 'לוי', phone: '0501234567' },
  }) as IntegrationAppointment;

describe("the diary's events", () => {
  it('shows the active caregivers in page order, and an inactive one only with an appointment', () => {
    const all = [
      caregiver(1, 20),
      caregiver(2, 10),
      caregiver(3, 5, false),
      caregiver(4, 1, false),
    ];
    expect(shownCaregivers(all, null, []).map((c) => c.id)).toEqual([2, 1]);
    expect(shownCaregivers(all, null, [appointment(9, 3)]).map((c) => c.id)).toEqual([3, 2, 1]);
    expect(shownCaregivers(all, 1, []).map((c) => c.id)).toEqual([1]);
  });

  it("draws booked appointments at their instants, in their caregiver's column", () => {
    const events = appointmentEvents([appointment(1, 2), appointment(2, 2, 'cancelled')], null);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'appointment', resourceId: 2 });
    expect(events[0]?.start.toISOString()).toBe('2027-03-25T07:00:00.000Z');
    expect(appointmentEvents([appointment(1, 2)], 1)).toEqual([]);
  });

  it("draws the shown caregivers' busy times, named after them", () => {
    const busy: ClinicBusyTime[] = [
      {
        caregiver_id: 1,
        start: '2027-03-25T10:00:00+02:00',
        end: '2027-03-25T11:00:00+02:00',
        source: 'calendar',
        label: null,
      },
      {
        caregiver_id: 5,
        start: '2027-03-25T10:00:00+02:00',
        end: '2027-03-25T11:00:00+02:00',
        source: 'api',
        label: 'x',
      },
    ];
    expect(busyEvents(busy, [caregiver(1, 0)])).toEqual([
      expect.objectContaining({ kind: 'busy', resourceId: 1, caregiverName: 'c1' }),
    ]);
  });
});
