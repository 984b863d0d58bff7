import { describe, expect, it } from 'vitest';
import type { Transaction } from '../../platform/db/client.js';
import { AppError } from '../../platform/errors.js';
import type { BookingSubject } from '../availability/booking-subject.js';
import type { AppointmentsRepository } from './appointments-repository.js';
import { isCancellable } from './appointment-rules.js';
import { createAppointmentsService } from './appointments-service.js';

const MINUTE = 60_000;
const NOW = Date.parse('2027-03-24T10:00:00+02:00');

/** A database error as drizzle throws it: its wrapper, the driver's error as the cause. */
function sqlError(code: string, constraint?: string): Error {
  return new Error('Failed query: insert into "appointments" …', {
    cause: Object.assign(new Error('driver error'), { code, constraint }),
  });
}

const subject: BookingSubject = {
  clinic: {
    id: 1,
    name: 'מרפאה',
    street: 'הרצל',
    homeNumber: '1',
    city: 'תל אביב-יפו',
    timezone: 'Asia/Jerusalem',
    isAutoSmsEnabled: false,
    maxUpcomingAppointments: 3,
  },
  caregiver: { id: 2, name: 'ד"ר דנה', isActive: true },
  type: { id: 3, name: 'בדיקה', durationMinutes: 30 },
  offersType: true,
};

/** A service whose booking transaction fails with `errors` in turn before it runs. */
function serviceFailing(errors: Error[], maxBookingAttempts?: number) {
  const runs = { count: 0 };
  const repository = {
    db: {
      transaction: async (work: (tx: Transaction) => Promise<unknown>) => {
        const error = errors[runs.count];
        runs.count += 1;
        if (error) throw error;
        return work({} as Transaction);
      },
    } as unknown as AppointmentsRepository['db'],
    findBookingSubject: async () => subject,
    findBookingOnDate: async () => null,
    countUpcoming: async () => 0,
    lockAndCountUpcomingOfPhone: async () => 0,
    lockCaregiverBookings: async () => {},
    findOverlapping: async () => null,
    insertAppointment: async () => ({ id: 7 }),
  } as Partial<AppointmentsRepository> as AppointmentsRepository;
  const service = createAppointmentsService({
    repository,
    availability: { isOfferedSlot: async () => ({ offered: true, timezone: 'Asia/Jerusalem' }) },
    busy: { overlapsExternalBusy: async () => false },
    patients: {
      findPatient: async () => null,
      insertPatient: async () => null,
      lockAndCountIdentities: async () => 0,
    },
    messaging: { queueMessage: async () => 'sms' as const, kick: () => {} },
    notices: { queue: async () => 'off' as const },
    webhooks: {
      emitAppointment: async () => 0,
      emitAppointmentRescheduled: async () => 0,
      kick: () => {},
    },
    reminders: { plan: async () => {}, withdraw: async () => {} },
    waitlist: { queueOffers: async () => {}, markBooked: async () => {}, kick: () => {} },
    cache: { invalidate: () => {} },
    calendar: {
      lastCheck: async () => 'free',
      queueWrite: async () => {},
    },
    clock: () => NOW,
    maxBookingAttempts,
    takeLimit: async () => {},
  });
  return { service, runs };
}

const patient = { id: 5, clinicId: 1, phone: '0501234567' };
const body = {
  clinicId: 1,
  caregiverId: 2,
  appointmentTypeId: 3,
  startDate: '2027-03-25T09:00:00+02:00',
  endDate: '2027-03-25T09:30:00+02:00',
};

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('booking transaction', () => {
  it('runs again after losing a deadlock or a serialization failure', async () => {
    const { service, runs } = serviceFailing([sqlError('40P01'), sqlError('40001')]);
    await expect(service.book(patient, body)).resolves.toMatchObject({
      id: 7,
      start_date: '2027-03-25T09:00:00+02:00',
    });
    expect(runs.count).toBe(3);
  });

  it('answers 409 slot_taken, never a 5xx, when deadlocks go on', async () => {
    const { service, runs } = serviceFailing(Array(10).fill(sqlError('40P01')), 3);
    const error = await refusal(service.book(patient, body));
    expect([error.status, error.code]).toEqual([409, 'slot_taken']);
    expect(runs.count).toBe(3);
  });

  it("names the constraint the database refused: the caregiver's slot or the patient's date", async () => {
    const overlap = serviceFailing([sqlError('23P01', 'appointments_no_overlap')]).service;
    expect((await refusal(overlap.book(patient, body))).code).toBe('slot_taken');
    const sameDate = serviceFailing([
      sqlError('23505', 'appointments_one_per_patient_date'),
    ]).service;
    const error = await refusal(sameDate.book(patient, body));
    expect([error.status, error.code]).toEqual([409, 'existingAppointment']);
  });

  it('leaves other database errors alone', async () => {
    const other = sqlError('23505', 'some_other_unique');
    const { service, runs } = serviceFailing([other]);
    await expect(service.book(patient, body)).rejects.toBe(other);
    expect(runs.count).toBe(1);
  });
});

describe('isCancellable', () => {
  const start = NOW + 24 * 60 * MINUTE;
  it('allows cancelling until the notice begins, inclusive', () => {
    expect(isCancellable(start, 24 * 60, NOW)).toBe(true);
    expect(isCancellable(start, 24 * 60, NOW + 1)).toBe(false);
    expect(isCancellable(NOW, 0, NOW)).toBe(true);
    expect(isCancellable(NOW - 1, 0, NOW)).toBe(false);
  });
});
