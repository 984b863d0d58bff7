import type {
  FormRequest,
  IntegrationAppointment,
  IntegrationPatient,
  IntegrationWaitlistEntry,
  PaymentRequest,
  ReassignedPatient,
  ReassignPatientBody,
  UpdatePatientBody,
} from '@marpe/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** Rows of the patients table a page. */
export const PATIENTS_PAGE_SIZE = 25;
/** What a patient's page shows of each list before "more". */
export const SECTION_PAGE_SIZE = 10;
/** Forms and payments change while the page is open (the patient fills, pays): live. */
export const LIVE_MS = 3000;

export const patientsKey = ['patients'] as const;

/**
 * One page of the clinic's patients (everyone by name when nothing is typed): one row more than
 * shown is asked for, so the page knows whether another follows.
 */
export const usePatientsPage = (q: string, page: number) =>
  useQuery({
    queryKey: [...patientsKey, 'page', q, page] as const,
    queryFn: async ({ signal }) => {
      const rows = await api<IntegrationPatient[]>(
        `/api/integration/patients?${new URLSearchParams({
          q,
          limit: String(PATIENTS_PAGE_SIZE + 1),
          offset: String(page * PATIENTS_PAGE_SIZE),
        })}`,
        { signal },
      );
      return { rows: rows.slice(0, PATIENTS_PAGE_SIZE), more: rows.length > PATIENTS_PAGE_SIZE };
    },
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

export const patientKey = (idNumber: string) => [...patientsKey, 'one', idNumber] as const;

export const usePatient = (idNumber: string) =>
  useQuery({
    queryKey: patientKey(idNumber),
    queryFn: ({ signal }) =>
      api<IntegrationPatient>(`/api/integration/patients/${encodeURIComponent(idNumber)}`, {
        signal,
      }),
    retry: false,
  });

/** Corrects names and phone; answers the patient as now on file. */
export const correctPatient = (idNumber: string, body: UpdatePatientBody) =>
  api<IntegrationPatient>(`/api/integration/patients/${encodeURIComponent(idNumber)}`, {
    method: 'PATCH',
    body,
  });

/**
 * Gives the ID number back to its owner (someone else had signed up with it): their phone and
 * names together; the ID's sessions and pending codes end. Answers the record as now on file.
 */
export const reassignPatient = (idNumber: string, body: ReassignPatientBody) =>
  api<ReassignedPatient>(`/api/integration/patients/${encodeURIComponent(idNumber)}/reassign`, {
    method: 'POST',
    body,
  });

/**
 * A patient's appointments from the clinic's today on (earliest first), or before it (latest
 * first), `limit` of them and whether more are on file.
 */
export const usePatientAppointments = (
  idNumber: string,
  which: 'upcoming' | 'past',
  today: string | null,
  limit: number,
) =>
  useQuery({
    queryKey: [...patientsKey, 'appointments', idNumber, which, today, limit] as const,
    queryFn: async ({ signal }) => {
      const rows = await api<IntegrationAppointment[]>(
        `/api/integration/appointments?${new URLSearchParams({
          patient_id_number: idNumber,
          ...(which === 'upcoming'
            ? { from: today ?? '', order: 'asc' }
            : { to: previousDate(today ?? ''), order: 'desc' }),
          limit: String(limit + 1),
        })}`,
        { signal },
      );
      return { rows: rows.slice(0, limit), more: rows.length > limit };
    },
    enabled: today !== null,
    refetchInterval: LIVE_MS,
    placeholderData: keepPreviousData,
  });

/** The day before a YYYY-MM-DD date. */
export function previousDate(date: string): string {
  const day = new Date(`${date}T12:00:00Z`);
  day.setUTCDate(day.getUTCDate() - 1);
  return day.toISOString().slice(0, 10);
}

/** Who waits: the patient's entries (filtered here too, for a server without the filter). */
export const usePatientWaitlist = (idNumber: string) =>
  useQuery({
    queryKey: [...patientsKey, 'waitlist', idNumber] as const,
    queryFn: async ({ signal }) => {
      const rows = await api<IntegrationWaitlistEntry[]>(
        `/api/integration/waitlist/entries?${new URLSearchParams({ patient_id_number: idNumber })}`,
        { signal },
      );
      return rows.filter((entry) => entry.patient.id_number === idNumber);
    },
    refetchInterval: LIVE_MS,
  });

/** The patient's intake-form requests, newest first. */
export const usePatientForms = (idNumber: string, limit: number) =>
  useQuery({
    queryKey: [...patientsKey, 'forms', idNumber, limit] as const,
    queryFn: async ({ signal }) => {
      const rows = await api<FormRequest[]>(
        `/api/integration/form-requests?${new URLSearchParams({
          patient_id_number: idNumber,
          limit: String(limit + 1),
        })}`,
        { signal },
      );
      const mine = rows.filter((r) => r.patient_id_number === idNumber);
      return { rows: mine.slice(0, limit), more: rows.length > limit };
    },
    refetchInterval: LIVE_MS,
    placeholderData: keepPreviousData,
  });

/** The patient's payment requests, newest first. */
export const usePatientPayments = (idNumber: string, limit: number) =>
  useQuery({
    queryKey: [...patientsKey, 'payments', idNumber, limit] as const,
    queryFn: async ({ signal }) => {
      const rows = await api<PaymentRequest[]>(
        `/api/integration/payment-requests?${new URLSearchParams({
          patient_id_number: idNumber,
          limit: String(limit + 1),
        })}`,
        { signal },
      );
      const mine = rows.filter((r) => r.patient_id_number === idNumber);
      return { rows: mine.slice(0, limit), more: rows.length > limit };
    },
    refetchInterval: LIVE_MS,
    placeholderData: keepPreviousData,
  });
