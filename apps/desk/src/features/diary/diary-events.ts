import type { ClinicBusyTime, IntegrationAppointment, IntegrationCaregiver } from '@marpe/shared';

/** What the calendar draws: Marpe's appointments (movable) and busy times (behind them). */
export type DiaryEvent =
  | {
      kind: 'appointment';
      key: string;
      start: Date;
      end: Date;
      resourceId: number;
      appointment: IntegrationAppointment;
    }
  | {
      kind: 'busy';
      key: string;
      start: Date;
      end: Date;
      resourceId: number;
      busy: ClinicBusyTime;
      caregiverName: string;
    };

export const patientName = (appointment: Pick<IntegrationAppointment, 'patient'>) =>
  `${appointment.patient.first_name} ${appointment.patient.last_name}`;

export function appointmentEvents(
  appointments: readonly IntegrationAppointment[],
  caregiverId: number | null,
): DiaryEvent[] {
  return appointments
    .filter(
      (a) => a.status === 'booked' && (caregiverId === null || a.caregiver.id === caregiverId),
    )
    .map((appointment) => ({
      kind: 'appointment' as const,
      key: `appointment-${appointment.id}`,
      start: new Date(appointment.start_date),
      end: new Date(appointment.end_date),
      resourceId: appointment.caregiver.id,
      appointment,
    }));
}

export function busyEvents(
  busy: readonly ClinicBusyTime[],
  caregivers: readonly Pick<IntegrationCaregiver, 'id' | 'name'>[],
): DiaryEvent[] {
  const names = new Map(caregivers.map((c) => [c.id, c.name]));
  return busy
    .filter((b) => names.has(b.caregiver_id))
    .map((item, i) => ({
      kind: 'busy' as const,
      key: `busy-${item.caregiver_id}-${item.start}-${i}`,
      start: new Date(item.start),
      end: new Date(item.end),
      resourceId: item.caregiver_id,
      busy: item,
      caregiverName: names.get(item.caregiver_id) ?? '',
    }));
}

/**
 * The caregivers the diary shows side by side: the one chosen, or the active ones in page order
 * with any inactive one that still has an appointment on screen.
 */
export function shownCaregivers(
  caregivers: readonly IntegrationCaregiver[],
  caregiverId: number | null,
  appointments: readonly IntegrationAppointment[],
): IntegrationCaregiver[] {
  if (caregiverId !== null) return caregivers.filter((c) => c.id === caregiverId);
  const withAppointments = new Set(appointments.map((a) => a.caregiver.id));
  return caregivers
    .filter((c) => c.is_active || withAppointments.has(c.id))
    .sort((a, b) => a.sort_order - b.sort_order || a.id - b.id);
}
