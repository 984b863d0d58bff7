import { useQuery } from '@tanstack/react-query';
import { disableZodJit, type GetFormResponse } from '@marpe/shared';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { ApiError } from '../../lib/api-client';
import { ErrorView } from '../../lib/error-view';
import { LoadingView } from '../../lib/loading-view';
import { getForm } from './api/get-form';
import { IntakeForm } from './components/intake-form';
import { useFormStore } from './stores/form-store';

// This page validates with zod (the form's answers): no eval probe under our CSP.
disableZodJit();

/** SPEC § 2 "Intake form page" (/q/:token). */
export function IntakeFormPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const { data, error, isFetching, refetch } = useQuery({
    queryKey: ['intake-form', token],
    queryFn: ({ signal }) => getForm(token, signal),
    staleTime: Infinity,
    gcTime: 0,
    enabled: token !== '',
  });
  const load = useFormStore((state) => state.load);
  const loaded = useFormStore((state) => state.formData !== null && state.token === token);

  // Once per answer: after a submit resets the store, the form must not load itself back in.
  const loadedFrom = useRef<GetFormResponse | null>(null);
  useEffect(() => {
    if (!data || loadedFrom.current === data) return;
    loadedFrom.current = data;
    load(token, data.data, data.draft);
  }, [data, token, load]);

  const invalidLink = token === '' || (error instanceof ApiError && error.status === 404);

  if (invalidLink) return <Navigate to="/expired" replace />;
  if (!data && error && !isFetching) {
    return <ErrorView message={t('intakeForm.loadError')} onRetry={() => void refetch()} />;
  }
  if (!data || !loaded) return <LoadingView />;
  return <IntakeForm />;
}
