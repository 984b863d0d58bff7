import type { ClinicData } from '@marpe/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { patientAppointmentsQueryOptions } from '../../../lib/patient-appointments';
import { applyPreset, presetOf } from '../booking-address';
import { formatTime } from '../format';
import { useBookingStore } from '../stores/booking-store';
import { bookedDatesOf } from './use-booking-limits';

/**
 * The choices between the page's address and the booking store: the address's preselection and
 * the single choices made for the patient, read once; the address following the choices after;
 * and, once a caregiver and a type are chosen, their dates, then the first (or the address's)
 * date and its times (docs/product/booking.md#the-page).
 */
/** What the booking steps are for: the clinic, the patient, and whether an appointment moves. */
export interface BookingFor {
  data: ClinicData;
  clinicId: number;
  patientId: number;
  /** Moving this appointment of the patient's rather than booking a new one. */
  rescheduleId: number | null;
}

export function useBookingChoices({ data, clinicId, patientId, rescheduleId }: BookingFor) {
  const queryClient = useQueryClient();
  const [searchParams, setSearchParams] = useSearchParams();
  // Read once, before the store is read. Later changes are the patient's own.
  const [preset] = useState(() => {
    const values = presetOf(searchParams);
    applyPreset(data, clinicId, values);
    return values;
  });
  const [presetDate, setPresetDate] = useState(preset.date);
  const [presetTime, setPresetTime] = useState(preset.time);
  /** How the offer's slot turned out: preselected, or taken meanwhile. */
  const [offer, setOffer] = useState<'selected' | 'taken' | null>(null);
  const caregiver = useBookingStore((state) => state.selectedCaregiver);
  const type = useBookingStore((state) => state.selectedAppointmentType);
  const selectedDate = useBookingStore((state) => state.selectedDate);
  const timeZone = data.clinic.timezone;

  // The address follows the choices, without adding history entries.
  useEffect(() => {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        const values = {
          caregiverId: caregiver ? String(caregiver.id) : null,
          appointmentTypeId: type ? String(type.id) : null,
          date: caregiver && type ? (selectedDate ?? presetDate) : null,
          // Used once: a reload shows the date's times, not a stale offer.
          time: presetTime,
        };
        for (const [key, value] of Object.entries(values)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        return next;
      },
      { replace: true },
    );
  }, [caregiver, type, selectedDate, presetDate, presetTime, setSearchParams]);

  const caregiverId = caregiver?.id;
  const typeId = type?.id;
  const [datesAttempt, setDatesAttempt] = useState(0);
  useEffect(() => {
    if (caregiverId === undefined || typeId === undefined) return;
    let cancelled = false;
    const state = useBookingStore.getState();
    void state.fetchAvailableDates().then(() => {
      const now = useBookingStore.getState();
      if (cancelled || now.selectedCaregiver?.id !== caregiverId) return;
      if (now.selectedAppointmentType?.id !== typeId) return;
      const offered = presetDate !== null && now.availableDates.includes(presetDate);
      // The first date the patient can book on, not one that already holds their appointment
      // (the list as it is now: it may have arrived after the render that started this).
      const booked = bookedDatesOf(
        queryClient.getQueryData(patientAppointmentsQueryOptions(patientId).queryKey),
        rescheduleId,
        timeZone,
      );
      const firstFree = now.availableDates.find((d) => !booked.has(d)) ?? now.availableDates[0];
      const date = offered ? presetDate : (firstFree ?? null);
      setPresetDate(null);
      setPresetTime(null);
      now.selectDate(date);
      if (!date) {
        if (presetTime) setOffer('taken');
        return;
      }
      void now.fetchAvailableSlots(date).then(() => {
        if (cancelled || !presetTime) return;
        const state = useBookingStore.getState();
        const slot = offered
          ? state.availableSlots.find((s) => formatTime(s.start, timeZone) === presetTime)
          : undefined;
        if (slot) state.selectSlot(slot);
        setOffer(slot ? 'selected' : 'taken');
      });
    });
    return () => {
      cancelled = true;
    };
    // The preset date is read once, when the dates arrive; a retry (datesAttempt) loads again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [caregiverId, typeId, datesAttempt]);

  return { offer, retryDates: () => setDatesAttempt((n) => n + 1) };
}
