import { useEffect } from 'react';
import { useClinicStore } from './clinic-store';
import { useClinic } from './get-clinic';

/**
 * The clinic of the page's address, fetched through the shared query and kept in the clinic store
 * (docs/product/clinic-page.md#clinic-store) for the parts that read it there, such as the
 * verification form.
 */
export function useSelectedClinic(clinicId: number | null) {
  const query = useClinic(clinicId);
  const setClinicData = useClinicStore((state) => state.setClinicData);
  useEffect(() => {
    if (query.data) setClinicData(query.data);
  }, [query.data, setClinicData]);
  return query;
}
