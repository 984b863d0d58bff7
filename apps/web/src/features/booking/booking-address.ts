import type { ClinicData } from '@marpe/shared';
import { useBookingStore } from './stores/booking-store';

/** What the booking page's address preselects: `?caregiverId=&appointmentTypeId=&date=&time=`. */
export interface BookingPreset {
  caregiverId: string | null;
  appointmentTypeId: string | null;
  date: string | null;
  /** A waitlist offer's link names the freed slot's time too. */
  time: string | null;
}

/** An appointment id from `?reschedule=` ("change time" on my appointments), or null. */
export function rescheduleIdOf(value: string | null): number | null {
  if (value === null || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= 2_147_483_647 ? id : null;
}

/** `?time=HH:mm` of a waitlist offer's link, or null. */
export function presetTimeOf(value: string | null): string | null {
  return value !== null && /^([01]\d|2[0-3]):[0-5]\d$/.test(value) ? value : null;
}

/** The preset the address names. */
export function presetOf(searchParams: URLSearchParams): BookingPreset {
  return {
    caregiverId: searchParams.get('caregiverId'),
    appointmentTypeId: searchParams.get('appointmentTypeId'),
    date: searchParams.get('date'),
    time: presetTimeOf(searchParams.get('time')),
  };
}

/**
 * The preset, then the automatic choices when only one caregiver or type qualifies
 * (docs/product/booking.md#choices).
 */
export function applyPreset(
  data: ClinicData,
  clinicId: number,
  preset: { caregiverId: string | null; appointmentTypeId: string | null },
) {
  const state = useBookingStore.getState();
  state.setClinic(clinicId);
  if (state.isAppointmentConfirmed) state.reset();
  state.loadPreset({ clinicId, ...preset }, data.caregivers, data.appointmentTypes);
  const bookable = data.caregivers.filter((c) => c.first_available_slot !== null);
  const types = data.appointmentTypes.filter((tp) =>
    bookable.some((c) => c.default_appointment_types.includes(tp.id)),
  );
  let type = useBookingStore.getState().selectedAppointmentType;
  if (!type && types.length === 1 && types[0]) {
    state.selectAppointmentType(types[0]);
    type = types[0];
  }
  if (!useBookingStore.getState().selectedCaregiver) {
    const qualifying = bookable.filter(
      (c) => !type || c.default_appointment_types.includes(type.id),
    );
    if (qualifying.length === 1 && qualifying[0]) state.selectCaregiver(qualifying[0]);
  }
}
