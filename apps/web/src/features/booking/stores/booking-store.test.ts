import type { ClinicData } from '@marpe/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '../../../lib/api-client';
import { apiError, json, stubApi } from '../../../test/fake-api';
import { clinicFixture } from '../../../test/clinic-fixture';
import { canConfirm, useBookingStore } from './booking-store';

/** The list's item at `index`, failing the test when there is none. */
function at<T>(list: readonly T[], index: number): T {
  const item = list[index];
  if (item === undefined) throw new Error(`no item ${index}`);
  return item;
}

const slot = { start: '2027-03-28T09:00:00+03:00', end: '2027-03-28T09:20:00+03:00' };

function fixture(): ClinicData {
  const data = clinicFixture();
  data.caregivers = data.caregivers.map((c) => ({
    ...c,
    default_appointment_types: c.id === 11 ? [1, 2] : [1],
    google_calendar_sync_calendar_id: `${c.id}@calendar`,
  }));
  return data;
}

beforeEach(() => {
  configureApiClient({ baseUrl: '/api' });
  useBookingStore.getState().reset();
  useBookingStore.setState({ clinicId: 1 });
});
afterEach(() => vi.unstubAllGlobals());

describe('booking store: the choices of docs/product/booking.md', () => {
  it('choosing a caregiver clears a type it does not offer, then soft-resets', () => {
    const { caregivers, appointmentTypes } = fixture();
    const [cohen, peretz] = caregivers as [(typeof caregivers)[0], (typeof caregivers)[0]];
    const cleaning = at(appointmentTypes, 1);
    const store = useBookingStore.getState();
    store.selectCaregiver(cohen);
    store.selectAppointmentType(cleaning);
    useBookingStore.setState({
      selectedSlot: slot,
      availableDates: ['2027-03-28'],
      isSmsSent: true,
    });
    useBookingStore.getState().selectCaregiver(peretz);
    const state = useBookingStore.getState();
    expect(state.selectedCaregiver).toBe(peretz);
    expect(state.selectedAppointmentType).toBeNull();
    expect(state.selectedSlot).toBeNull();
    expect(state.availableDates).toEqual([]);
    expect(state.isSmsSent).toBe(false);
  });

  it('choosing a type clears a caregiver who does not offer it', () => {
    const { caregivers, appointmentTypes } = fixture();
    const store = useBookingStore.getState();
    store.selectCaregiver(at(caregivers, 1));
    store.selectAppointmentType(at(appointmentTypes, 1));
    expect(useBookingStore.getState().selectedCaregiver).toBeNull();
    store.selectCaregiver(at(caregivers, 0));
    store.selectAppointmentType(at(appointmentTypes, 0));
    expect(useBookingStore.getState().selectedCaregiver).toBe(caregivers[0]);
  });

  it('remembers the caregiver a type choice cleared, until the patient chooses again', () => {
    const { caregivers, appointmentTypes } = fixture();
    const peretz = at(caregivers, 1);
    const store = useBookingStore.getState();
    store.selectCaregiver(peretz);
    expect(useBookingStore.getState().droppedCaregiver).toBeNull();
    store.selectAppointmentType(at(appointmentTypes, 1));
    expect(useBookingStore.getState().droppedCaregiver).toBe(peretz);
    // Another type choice that keeps (or has no) caregiver leaves nothing to tell.
    store.selectAppointmentType(null);
    expect(useBookingStore.getState().droppedCaregiver).toBeNull();
    store.selectAppointmentType(at(appointmentTypes, 1));
    store.selectCaregiver(at(caregivers, 0));
    store.selectAppointmentType(at(appointmentTypes, 0));
    expect(useBookingStore.getState().droppedCaregiver).toBeNull();
    // Choosing a caregiver answers the message.
    store.selectCaregiver(peretz);
    store.selectAppointmentType(at(appointmentTypes, 1));
    store.selectCaregiver(at(caregivers, 0));
    expect(useBookingStore.getState().droppedCaregiver).toBeNull();
    store.selectCaregiver(peretz);
    store.selectAppointmentType(at(appointmentTypes, 1));
    store.reset();
    expect(useBookingStore.getState().droppedCaregiver).toBeNull();
  });

  it('a preset compares ids as numbers and selects no slot', () => {
    const { caregivers, appointmentTypes } = fixture();
    useBookingStore.setState({ selectedSlot: slot });
    useBookingStore
      .getState()
      .loadPreset(
        { clinicId: 1, caregiverId: '11', appointmentTypeId: '2' },
        caregivers,
        appointmentTypes,
      );
    const state = useBookingStore.getState();
    expect(state.selectedCaregiver?.id).toBe(11);
    expect(state.selectedAppointmentType?.id).toBe(2);
    expect(state.selectedSlot).toBeNull();
  });

  it('availability needs every id and the calendar id; slots need a date', async () => {
    const { caregivers, appointmentTypes } = fixture();
    await useBookingStore.getState().fetchAvailableDates();
    expect(useBookingStore.getState().error).toBe('booking.errors.missingAvailabilityInfo');
    useBookingStore
      .getState()
      .selectCaregiver({ ...at(caregivers, 0), google_calendar_sync_calendar_id: null });
    useBookingStore.getState().selectAppointmentType(at(appointmentTypes, 0));
    await useBookingStore.getState().fetchAvailableDates();
    expect(useBookingStore.getState().error).toBe('booking.errors.missingAvailabilityInfo');
    useBookingStore.getState().selectCaregiver(at(caregivers, 0));
    await useBookingStore.getState().fetchAvailableSlots();
    expect(useBookingStore.getState().error).toBe('booking.errors.selectDate');
  });

  it("fetches dates and the day's slots, deduplicated", async () => {
    const { caregivers, appointmentTypes } = fixture();
    const api = stubApi({
      'GET /api/appointment/available-dates': () =>
        json(['2027-03-28', '2027-03-28', '2027-03-29']),
      'GET /api/appointment/available-slots': () => json([slot, slot]),
    });
    const store = useBookingStore.getState();
    store.selectCaregiver(at(caregivers, 0));
    store.selectAppointmentType(at(appointmentTypes, 0));
    await useBookingStore.getState().fetchAvailableDates();
    expect(useBookingStore.getState().availableDates).toEqual(['2027-03-28', '2027-03-29']);
    await useBookingStore.getState().fetchAvailableSlots('2027-03-28');
    expect(useBookingStore.getState().availableSlots).toEqual([slot]);
    const query = new URLSearchParams(at(api.calls, 1).path.split('?')[1]);
    expect(query.get('startDate')).toBe('2027-03-28 00:00');
    expect(query.get('endDate')).toBe('2027-03-28 23:59');
    expect(query.get('duration')).toBe('20');
  });

  it('confirms only with caregiver, type and slot; maps 409 existingAppointment, too_many_upcoming and 429', async () => {
    const { caregivers, appointmentTypes } = fixture();
    expect(await useBookingStore.getState().confirmAppointment()).toBe(false);
    expect(useBookingStore.getState().error).toBe('booking.errors.missingConfirmInfo');
    const store = useBookingStore.getState();
    store.selectCaregiver(at(caregivers, 0));
    store.selectAppointmentType(at(appointmentTypes, 0));
    store.selectSlot(slot);
    expect(canConfirm(useBookingStore.getState())).toBe(true);
    stubApi({
      'POST /api/appointment': [
        () => apiError(409, 'existingAppointment'),
        () => apiError(409, 'too_many_upcoming'),
        () => apiError(429, 'too_many_requests'),
        () => apiError(500, 'internal_error'),
        () =>
          json(
            {
              id: 5,
              clinic_id: 1,
              caregiver_id: 11,
              appointment_type_id: 1,
              start_date: slot.start,
              end_date: slot.end,
              sms_sent: false,
            },
            201,
          ),
      ],
    });
    expect(await useBookingStore.getState().confirmAppointment()).toBe(false);
    expect(useBookingStore.getState().error).toBe('errors.existingAppointment');
    expect(await useBookingStore.getState().confirmAppointment()).toBe(false);
    expect(useBookingStore.getState().error).toBe('errors.too_many_upcoming');
    expect(await useBookingStore.getState().confirmAppointment()).toBe(false);
    expect(useBookingStore.getState().error).toBe('errors.too_many_requests');
    expect(await useBookingStore.getState().confirmAppointment()).toBe(false);
    expect(useBookingStore.getState().error).toBe('booking.errors.confirmFailed');
    expect(await useBookingStore.getState().confirmAppointment()).toBe(true);
    const state = useBookingStore.getState();
    expect(state.isAppointmentConfirmed).toBe(true);
    expect(state.displayConfirmation).toBe(true);
    expect(state.summary?.appointment.id).toBe(5);
    state.reset();
    expect(useBookingStore.getState()).toMatchObject({
      selectedCaregiver: null,
      selectedAppointmentType: null,
      selectedSlot: null,
      isAppointmentConfirmed: false,
      summary: null,
    });
  });

  it('moves an appointment instead of booking one when given its id', async () => {
    const { caregivers, appointmentTypes } = fixture();
    const store = useBookingStore.getState();
    store.selectCaregiver(at(caregivers, 0));
    store.selectAppointmentType(at(appointmentTypes, 0));
    store.selectSlot(slot);
    const moved = {
      id: 42,
      clinic_id: 1,
      caregiver_id: 11,
      appointment_type_id: 1,
      start_date: slot.start,
      end_date: slot.end,
      sms_sent: false,
    };
    const api = stubApi({
      'POST /api/appointment/patient-appointments/42/reschedule': [
        () => apiError(409, 'not_cancellable'),
        () => json(moved),
      ],
    });
    expect(await useBookingStore.getState().confirmAppointment(42)).toBe(false);
    expect(useBookingStore.getState().error).toBe('errors.not_cancellable');
    expect(await useBookingStore.getState().confirmAppointment(42)).toBe(true);
    expect(useBookingStore.getState().summary).toMatchObject({
      appointment: { id: 42 },
      rescheduled: true,
    });
    const sent = api.callsTo('POST /api/appointment/patient-appointments/42/reschedule');
    expect(sent.map((call) => call.body)).toEqual([
      expect.objectContaining({ caregiverId: 11, startDate: slot.start }),
      expect.objectContaining({ caregiverId: 11, startDate: slot.start }),
    ]);
    expect(api.callsTo('POST /api/appointment')).toEqual([]);
  });
});
