import type { StaffMembership, StaffRole, StaffSession } from '@marpe/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useSyncExternalStore } from 'react';
import { actForClinic, api, ApiError } from './api';

export const sessionQueryKey = ['staff-session'] as const;

/** The signed-in staff member, or null when no one is (a 401); other failures throw. */
export async function fetchStaffSession(): Promise<StaffSession | null> {
  try {
    return await api<StaffSession>('/api/staff-auth/session');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export const sessionQuery = {
  queryKey: sessionQueryKey,
  queryFn: fetchStaffSession,
  retry: false,
  staleTime: 5 * 60_000,
} as const;

export function useStaffSession() {
  return useQuery(sessionQuery);
}

const clinicStorageKey = 'marpe-desk-clinic';
const listeners = new Set<() => void>();

function storedClinic(): number | null {
  try {
    const value = Number(window.localStorage.getItem(clinicStorageKey));
    return Number.isSafeInteger(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Where the desk acts, with the signed-in member's role there. */
export interface CurrentClinic {
  clinicId: number;
  clinicName: string;
  role: StaffRole;
  memberships: StaffMembership[];
  isOwner: boolean;
}

/**
 * The clinic the desk acts for: the one chosen last (kept across visits), else the first the
 * member works at. Every clinic-API call names it. Switching clinic drops every clinic's data
 * held in memory, so nothing of one clinic shows while the other's loads.
 */
export function useCurrentClinic(session: StaffSession): CurrentClinic & {
  switchClinic: (clinicId: number) => void;
} {
  const queryClient = useQueryClient();
  const chosen = useSyncExternalStore(subscribe, storedClinic, () => null);
  const membership =
    session.memberships.find((m) => m.clinic_id === chosen) ?? session.memberships[0];
  const clinicId = membership?.clinic_id ?? 0;
  // Set before any child's query runs in this render pass's effects.
  actForClinic(clinicId || null);
  useEffect(() => {
    actForClinic(clinicId || null);
  }, [clinicId]);
  const switchClinic = useCallback(
    (next: number) => {
      try {
        window.localStorage.setItem(clinicStorageKey, String(next));
      } catch {
        // Private mode: the choice lasts the visit.
      }
      actForClinic(next);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
      for (const listener of listeners) listener();
    },
    [queryClient],
  );
  return {
    clinicId,
    clinicName: membership?.clinic_name ?? '',
    role: membership?.role ?? 'front_desk',
    memberships: session.memberships,
    isOwner: membership?.role === 'owner',
    switchClinic,
  };
}

export type ClinicContextValue = CurrentClinic & {
  session: StaffSession;
  switchClinic: (clinicId: number) => void;
};

export const ClinicContext = createContext<ClinicContextValue | null>(null);

/** The clinic the desk acts for and the member's role there (inside the signed-in layout). */
export function useClinic(): ClinicContextValue {
  const value = useContext(ClinicContext);
  if (!value) throw new Error('useClinic outside the signed-in desk');
  return value;
}
