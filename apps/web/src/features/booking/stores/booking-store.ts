import type { AppointmentType, BookedAppointment, Caregiver, Slot } from '@marpe/shared';
import { create } from 'zustand';
import { ApiError } from '../../../lib/api-client';
import { useBookingConfirmation } from '../../../lib/booking-confirmation';
import { createAppointment } from '../api/create-appointment';
import { getAvailableDates } from '../api/get-available-dates';
import { rescheduleAppointment } from '../api/reschedule-appointment';
import { dayRange, getAvailableSlots } from '../api/get-available-slots';
import { sendAppointmentSms } from '../api/send-appointment-sms';

/** i18n keys of the booking errors (docs/product/booking.md#availability, #confirming). */
export type BookingError =
  | 'booking.errors.missingAvailabilityInfo'
  | 'booking.errors.selectDate'
  | 'booking.errors.fetchFailed'
  | 'booking.errors.missingConfirmInfo'
  | 'booking.errors.missingSmsInfo'
  | 'booking.errors.smsFailed'
  | 'booking.errors.confirmFailed'
  | 'errors.existingAppointment'
  | 'errors.slot_taken'
  | 'errors.too_many_upcoming'
  | 'errors.too_many_requests'
  | 'errors.not_cancellable';

/** What the confirmation page shows once the booking succeeded. */
export interface AppointmentSummary {
  appointment: BookedAppointment;
  caregiver: Caregiver;
  appointmentType: AppointmentType;
  /** An existing appointment moved here, not a new booking. */
  rescheduled: boolean;
}

export interface BookingPreset {
  clinicId: number;
  caregiverId?: number | string | null;
  appointmentTypeId?: number | string | null;
}

export interface BookingState {
  clinicId: number | null;
  selectedCaregiver: Caregiver | null;
  selectedAppointmentType: AppointmentType | null;
  selectedSlot: Slot | null;
  /** `YYYY-MM-DD`, clinic time. */
  selectedDate: string | null;
  availableDates: string[];
  availableSlots: Slot[];
  loading: boolean;
  error: BookingError | null;
  isAppointmentConfirmed: boolean;
  isSmsSent: boolean;
  summary: AppointmentSummary | null;
  /** The display-confirmation flag (mirrored to lib's for the clinic page's snackbar). */
  displayConfirmation: boolean;
  /**
   * The caregiver the last type choice cleared for not offering that type: the page tells the
   * patient why the choice is gone (null once they choose again).
   */
  droppedCaregiver: Caregiver | null;
  /**
   * The time the patient had chosen and a refresh found taken (booked by someone else, or made
   * busy in the caregiver's calendar): the page says so (null once they choose again).
   */
  takenSlot: Slot | null;

  setClinic: (clinicId: number) => void;
  selectCaregiver: (caregiver: Caregiver | null) => void;
  selectAppointmentType: (appointmentType: AppointmentType | null) => void;
  selectDate: (date: string | null) => void;
  selectSlot: (slot: Slot | null) => void;
  fetchAvailableDates: () => Promise<void>;
  /** The slots of `date` (default: the selected date). */
  fetchAvailableSlots: (date?: string | null) => Promise<void>;
  /**
   * The selected date's slots again, quietly (no loading state, a failure changes nothing), for
   * an open page to learn of times taken since: a chosen time gone is unchosen (`takenSlot`).
   */
  refreshAvailableSlots: () => Promise<void>;
  /**
   * True once booked; false when refused or failed (`error` says why). With `rescheduleId`, the
   * patient's appointment of that id is moved to the slot instead ("change time").
   */
  confirmAppointment: (rescheduleId?: number | null) => Promise<boolean>;
  sendSms: () => Promise<boolean>;
  /** Full reset (docs/product/booking.md#choices). */
  reset: () => void;
  /** Preset: clinic, caregiver and type by id (numeric comparison), no slot. */
  loadPreset: (
    preset: BookingPreset,
    caregivers: readonly Caregiver[],
    appointmentTypes: readonly AppointmentType[],
  ) => void;
  clearError: () => void;
}

const softReset = {
  availableSlots: [],
  availableDates: [],
  isAppointmentConfirmed: false,
  isSmsSent: false,
  selectedSlot: null,
  takenSlot: null,
} satisfies Partial<BookingState>;

const initial = {
  clinicId: null,
  selectedCaregiver: null,
  selectedAppointmentType: null,
  selectedDate: null,
  loading: false,
  error: null,
  summary: null,
  displayConfirmation: false,
  droppedCaregiver: null,
  ...softReset,
} satisfies Partial<BookingState>;

function offers(caregiver: Caregiver, appointmentType: AppointmentType): boolean {
  return caregiver.default_appointment_types.includes(appointmentType.id);
}

/** The same interval, however its instants are spelt. */
function sameInstant(a: Slot, b: Slot): boolean {
  return Date.parse(a.start) === Date.parse(b.start) && Date.parse(a.end) === Date.parse(b.end);
}

function sameId(a: number, b: number | string | null | undefined): boolean {
  return b !== null && b !== undefined && b !== '' && Number(b) === a;
}

export const useBookingStore = create<BookingState>()((set, get) => {
  // Only the latest availability request may land, however the answers are ordered.
  let latestDates = 0;
  let latestSlots = 0;

  /** The ids every availability call needs (docs/product/booking.md#availability), or null. */
  function availabilityQuery() {
    const { clinicId, selectedCaregiver: caregiver, selectedAppointmentType: type } = get();
    if (!clinicId || !caregiver || !caregiver.google_calendar_sync_calendar_id || !type) {
      return null;
    }
    return { clinicId, caregiverId: caregiver.id, duration: type.duration_minutes };
  }

  /** The booking body (docs/product/booking.md#confirming, #details-by-sms), or null. */
  function bookingBody() {
    const { clinicId, selectedCaregiver, selectedAppointmentType, selectedSlot } = get();
    if (!clinicId || !selectedCaregiver || !selectedAppointmentType || !selectedSlot) return null;
    return {
      clinicId,
      caregiverId: selectedCaregiver.id,
      appointmentTypeId: selectedAppointmentType.id,
      startDate: selectedSlot.start,
      endDate: selectedSlot.end,
    };
  }

  return {
    ...initial,

    setClinic: (clinicId) => {
      if (get().clinicId !== clinicId) {
        latestDates += 1;
        latestSlots += 1;
        set({ ...initial, clinicId });
      }
    },

    selectCaregiver: (caregiver) => {
      const type = get().selectedAppointmentType;
      latestDates += 1;
      latestSlots += 1;
      set({
        selectedAppointmentType: caregiver && type && !offers(caregiver, type) ? null : type,
        ...softReset,
        selectedCaregiver: caregiver,
        droppedCaregiver: null,
      });
    },

    selectAppointmentType: (appointmentType) => {
      const caregiver = get().selectedCaregiver;
      latestDates += 1;
      latestSlots += 1;
      const dropped = appointmentType && caregiver && !offers(caregiver, appointmentType);
      set({
        selectedCaregiver: dropped ? null : caregiver,
        ...softReset,
        selectedAppointmentType: appointmentType,
        droppedCaregiver: dropped ? caregiver : null,
      });
    },

    selectDate: (date) => set({ selectedDate: date, takenSlot: null }),

    selectSlot: (slot) => set({ selectedSlot: slot, takenSlot: null }),

    fetchAvailableDates: async () => {
      const query = availabilityQuery();
      if (!query) {
        set({ error: 'booking.errors.missingAvailabilityInfo' });
        return;
      }
      const request = ++latestDates;
      set({ loading: true, error: null });
      try {
        const dates = await getAvailableDates(query);
        if (request === latestDates) set({ availableDates: dates, loading: false });
      } catch {
        if (request === latestDates) {
          set({ availableDates: [], loading: false, error: 'booking.errors.fetchFailed' });
        }
      }
    },

    fetchAvailableSlots: async (date = get().selectedDate) => {
      const query = availabilityQuery();
      if (!query) {
        set({ error: 'booking.errors.missingAvailabilityInfo' });
        return;
      }
      if (!date) {
        set({ error: 'booking.errors.selectDate' });
        return;
      }
      const request = ++latestSlots;
      set({ loading: true, error: null, selectedSlot: null });
      try {
        const slots = await getAvailableSlots({ ...query, ...dayRange(date) });
        if (request === latestSlots) set({ availableSlots: slots, loading: false });
      } catch {
        if (request === latestSlots) {
          set({ availableSlots: [], loading: false, error: 'booking.errors.fetchFailed' });
        }
      }
    },

    refreshAvailableSlots: async () => {
      const query = availabilityQuery();
      const date = get().selectedDate;
      // Not while a booking is on its way or done, nor over a fetch of the patient's own.
      if (!query || !date || get().loading || get().isAppointmentConfirmed) return;
      const request = ++latestSlots;
      let slots: Slot[];
      try {
        slots = await getAvailableSlots({ ...query, ...dayRange(date) });
      } catch {
        return;
      }
      const now = get();
      if (request !== latestSlots || now.selectedDate !== date || now.loading) return;
      const chosen = now.selectedSlot;
      const gone = chosen !== null && !slots.some((s) => sameInstant(s, chosen));
      set({
        availableSlots: slots,
        ...(gone ? { selectedSlot: null, takenSlot: chosen } : {}),
      });
    },

    confirmAppointment: async (rescheduleId = null) => {
      const body = bookingBody();
      const { selectedCaregiver, selectedAppointmentType } = get();
      if (!body || !selectedCaregiver || !selectedAppointmentType) {
        set({ error: 'booking.errors.missingConfirmInfo' });
        return false;
      }
      set({ loading: true, error: null });
      try {
        const appointment =
          rescheduleId === null
            ? await createAppointment(body)
            : await rescheduleAppointment(rescheduleId, body);
        set({
          loading: false,
          isAppointmentConfirmed: true,
          isSmsSent: appointment.sms_sent,
          displayConfirmation: true,
          summary: {
            appointment,
            caregiver: selectedCaregiver,
            appointmentType: selectedAppointmentType,
            rescheduled: rescheduleId !== null,
          },
        });
        useBookingConfirmation.getState().showConfirmation();
        return true;
      } catch (error) {
        const code = error instanceof ApiError ? error.code : null;
        set({
          loading: false,
          error:
            code === 'existingAppointment' ||
            code === 'slot_taken' ||
            code === 'too_many_upcoming' ||
            code === 'too_many_requests' ||
            code === 'not_cancellable'
              ? `errors.${code}`
              : 'booking.errors.confirmFailed',
        });
        return false;
      }
    },

    sendSms: async () => {
      const body = bookingBody();
      if (!body) {
        set({ error: 'booking.errors.missingSmsInfo' });
        return false;
      }
      try {
        await sendAppointmentSms(body);
        set({ isSmsSent: true });
        return true;
      } catch {
        set({ error: 'booking.errors.smsFailed' });
        return false;
      }
    },

    reset: () => {
      latestDates += 1;
      latestSlots += 1;
      // Everything but the clinic.
      set({ ...initial, clinicId: get().clinicId });
    },

    loadPreset: ({ clinicId, caregiverId, appointmentTypeId }, caregivers, appointmentTypes) => {
      latestDates += 1;
      latestSlots += 1;
      set({
        clinicId,
        selectedCaregiver: caregivers.find((c) => sameId(c.id, caregiverId)) ?? null,
        selectedAppointmentType:
          appointmentTypes.find((t) => sameId(t.id, appointmentTypeId)) ?? null,
        droppedCaregiver: null,
        ...softReset,
      });
    },

    clearError: () => set({ error: null }),
  };
});

/**
 * Booking is allowed once caregiver, type and slot are chosen (docs/product/booking.md#choices).
 */
export function canConfirm(
  state: Pick<BookingState, 'selectedCaregiver' | 'selectedAppointmentType' | 'selectedSlot'>,
): boolean {
  return Boolean(state.selectedCaregiver && state.selectedAppointmentType && state.selectedSlot);
}
