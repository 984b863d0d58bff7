import { useQuery } from '@tanstack/react-query';
import type { GetFormResponse } from '@marpe/shared';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { useStore } from 'zustand';
import { ApiError } from '../../lib/api-client';
import { endedLinkPath } from '../../lib/clinic/ended-link';
import { ErrorView } from '../../lib/error-view';
import { LoadingView } from '../../lib/loading-view';
import { getForm, intakeFormQueryKey } from './api/get-form';
import { IntakeForm } from './components/intake-form';
import { createFormStore, FormStoreProvider } from './stores/form-store';

/** The intake-form page, /q/:token (docs/product/intake-form.md). */
export function IntakeFormPage() {
  const { token = '' } = useParams();
  // Another link's form starts from a store of its own.
  return <LinkForm key={token} token={token} />;
}

function LinkForm({ token }: { token: string }) {
  const { t } = useTranslation();
  const { data, error, isFetching, refetch } = useQuery({
    queryKey: intakeFormQueryKey(token),
    queryFn: ({ signal }) => getForm(token, signal),
    staleTime: Infinity,
    gcTime: 0,
    enabled: token !== '',
  });
  // The answer is already here when the server rendered the page with it (ADR 021): the store
  // then starts with it, and the first render is the form, as in the server's HTML.
  const [store] = useState(() =>
    createFormStore(data && { token, formData: data.data, draft: data.draft }),
  );
  const loaded = useStore(store, (state) => state.formData !== null);

  // Once per answer: after a submit resets the store, the form must not load itself back in.
  // The answer the store started with is loaded too: what this device kept from an earlier
  // version (ADR 016) is read only here, never during a render the server's HTML must match.
  const loadedFrom = useRef<GetFormResponse | null>(null);
  useEffect(() => {
    if (!data || loadedFrom.current === data) return;
    loadedFrom.current = data;
    store.getState().load(token, data.data, data.draft);
  }, [data, token, store]);

  // Answers typed less than the save delay before a reload, a closed tab or an app switch go as
  // the page is hidden: `pagehide` for a reload or close, `visibilitychange` for the rest (a
  // mobile browser may discard a hidden page without another event).
  useEffect(() => {
    const save = () => store.getState().saveBeforeHiding();
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') save();
    };
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', save);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', save);
    };
  }, [store]);

  const invalidLink = token === '' || (error instanceof ApiError && error.status === 404);

  // A link that ended says how (a form already sent: received), with its clinic's phone.
  if (invalidLink) return <Navigate to={endedLinkPath(error)} replace />;
  if (!data && error && !isFetching) {
    return <ErrorView message={t('intakeForm.loadError')} onRetry={() => void refetch()} />;
  }
  if (!data || !loaded) return <LoadingView />;
  return (
    <FormStoreProvider value={store}>
      <IntakeForm clinicId={data.clinicId} />
    </FormStoreProvider>
  );
}
