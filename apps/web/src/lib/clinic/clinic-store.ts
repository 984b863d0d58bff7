import type { AppointmentType, Caregiver, Clinic, ClinicData } from '@marpe/shared';
import { create } from 'zustand';
import { getClinic } from './get-clinic';

export interface ClinicState {
  clinic: Clinic | null;
  caregivers: Caregiver[];
  appointmentTypes: AppointmentType[];
  loading: boolean;
  isAcceptNewPatients: boolean;
  /** Stores a clinic's data fetched elsewhere (the clinic page's query). */
  setClinicData: (data: ClinicData) => void;
  /**
   * docs/product/clinic-page.md#clinic-store. `load` defaults to a plain fetch; a page that has the
   * query client passes `(id) => queryClient.fetchQuery(clinicQueryOptions(id))` to share its
   * cache. Rejects with the load error (the store then keeps no clinic).
   */
  selectClinic: (
    clinicId: number,
    load?: (clinicId: number) => Promise<ClinicData>,
  ) => Promise<void>;
}

const empty = {
  clinic: null,
  caregivers: [],
  appointmentTypes: [],
  loading: false,
  isAcceptNewPatients: false,
} satisfies Partial<ClinicState>;

function fromData(data: ClinicData) {
  return {
    clinic: data.clinic,
    caregivers: data.caregivers,
    appointmentTypes: data.appointmentTypes,
    isAcceptNewPatients: data.clinic.settings.is_accept_new_patients === true,
  };
}

/**
 * The clinic the patient is dealing with, for the pages that follow the clinic page (login,
 * booking). TanStack Query stays the one place that fetches and caches clinic data: the clinic
 * page feeds this store from its query, and `selectClinic` is for a page opened directly.
 */
export const useClinicStore = create<ClinicState>()((set, get) => {
  // Only the latest selection may land, however the answers are ordered.
  let latest = 0;
  return {
    ...empty,
    setClinicData: (data) => {
      latest += 1;
      set({ ...fromData(data), loading: false });
    },
    selectClinic: async (clinicId, load = getClinic) => {
      const request = ++latest;
      set(get().clinic?.id === clinicId ? { loading: true } : { ...empty, loading: true });
      try {
        const data = await load(clinicId);
        if (request === latest) set({ ...fromData(data), loading: false });
      } catch (error) {
        if (request === latest) set({ ...empty });
        throw error;
      }
    },
  };
});
