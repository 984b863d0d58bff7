import type { IntegrationClinic, SetupStep, UpdateClinicBody } from '@marpe/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverFieldErrors, type FieldErrors } from '../../../lib/field-errors';
import { sessionQueryKey } from '../../../lib/session';
import { setupChecklistQueryKey } from '../../../lib/setup-checklist';
import { clinicQueryKey, getClinic, updateClinic } from '../api/clinic';
import { useSavedStep } from '../../../lib/setup-step';

export const useClinicQuery = () => useQuery({ queryKey: clinicQueryKey, queryFn: getClinic });

/**
 * Saves a step's part of the clinic (PATCH /clinic) and marks the step done. Field errors (the
 * form's own, then the server's 400) are kept by field path, mapped by `pathOf` from the API's
 * path; any other failure is `error`, and the typed values stay.
 */
export function useClinicForm(step: SetupStep, pathOf: (apiPath: string) => string = (p) => p) {
  const { t } = useTranslation('setup');
  const queryClient = useQueryClient();
  const savedStep = useSavedStep(step);
  const [errors, setErrors] = useState<FieldErrors>({});
  const mutation = useMutation({
    mutationFn: updateClinic,
    onSuccess: async (clinic: IntegrationClinic) => {
      queryClient.setQueryData(clinicQueryKey, clinic);
      // The name and address show in the bar and in the clinic page's address.
      void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
      void queryClient.invalidateQueries({ queryKey: setupChecklistQueryKey });
      await savedStep();
    },
  });
  async function save(body: UpdateClinicBody): Promise<boolean> {
    setErrors({});
    try {
      await mutation.mutateAsync(body);
      return true;
    } catch (failure) {
      const fields = serverFieldErrors(t, failure);
      if (fields) {
        setErrors(Object.fromEntries(Object.entries(fields).map(([k, v]) => [pathOf(k), v])));
        mutation.reset();
      }
      return false;
    }
  }
  return { errors, setErrors, save, busy: mutation.isPending, error: mutation.error };
}
