import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { ApiError } from '../../lib/api';
import { errorText } from '../../lib/field-errors';
import { OwnersOnly } from '../../lib/owners-only';
import { Page } from '../../lib/page';
import { PageLoading } from '../../lib/page-loading';
import { ClinicPageLink } from '../../lib/setup-step';
import { appointmentTypesQueryKey, listAppointmentTypes } from './api/appointment-types';
import {
  caregiverQueryKey,
  caregiversQueryKey,
  getCaregiver,
  listCaregivers,
} from './api/caregivers';
import { clinicQueryKey, getClinic } from './api/clinic';
import { ActiveButton } from './components/active-button';
import { CaregiverForm, listPath } from './components/caregiver-form';

/** `/setup/caregivers/new` and `/setup/caregivers/:id`: a caregiver's details, week and rules. */
export function CaregiverPage() {
  const { id } = useParams();
  return (
    <OwnersOnly>
      {id === undefined ? <NewCaregiver /> : <EditCaregiver id={Number(id)} />}
    </OwnersOnly>
  );
}

function useFormData() {
  const types = useQuery({ queryKey: appointmentTypesQueryKey, queryFn: listAppointmentTypes });
  const clinic = useQuery({ queryKey: clinicQueryKey, queryFn: getClinic });
  return { types, clinic };
}

function LoadFailed({ title, error }: { title: string; error: unknown }) {
  const { t } = useTranslation('setup-team');
  const missing = error instanceof ApiError && error.status === 404;
  return (
    <Page title={title} width="md">
      <Alert severity="error" sx={{ mb: 2 }}>
        {missing ? t('caregiver.notFound') : errorText(t, error)}
      </Alert>
      <Link component={RouterLink} to={listPath}>
        {t('caregiver.backToList')}
      </Link>
    </Page>
  );
}

function NewCaregiver() {
  const { t } = useTranslation('setup-team');
  const { types, clinic } = useFormData();
  const caregivers = useQuery({ queryKey: caregiversQueryKey, queryFn: listCaregivers });
  const failed = types.error ?? clinic.error ?? caregivers.error;
  if (failed) return <LoadFailed title={t('caregiver.newTitle')} error={failed} />;
  if (!types.data || !clinic.data || !caregivers.data) return <PageLoading />;
  // A new caregiver goes last on the clinic page.
  const nextSortOrder = Math.max(
    caregivers.data.length,
    ...caregivers.data.map((c) => c.sort_order + 1),
  );
  return (
    <Page title={t('caregiver.newTitle')} width="lg" actions={<ClinicPageLink />}>
      <CaregiverForm
        caregiver={null}
        types={types.data}
        clinic={clinic.data}
        nextSortOrder={nextSortOrder}
      />
    </Page>
  );
}

function EditCaregiver({ id }: { id: number }) {
  const { t } = useTranslation('setup-team');
  const { types, clinic } = useFormData();
  const valid = Number.isSafeInteger(id) && id > 0;
  const caregiver = useQuery({
    queryKey: caregiverQueryKey(id),
    queryFn: () => getCaregiver(id),
    enabled: valid,
    // The form keeps what is typed; a refetch only refreshes the status above it.
    refetchOnWindowFocus: false,
  });
  if (!valid) {
    return (
      <LoadFailed title={t('caregiver.editTitle')} error={new ApiError(404, 'not_found', '')} />
    );
  }
  const failed = caregiver.error ?? types.error ?? clinic.error;
  if (failed) return <LoadFailed title={t('caregiver.editTitle')} error={failed} />;
  if (!caregiver.data || !types.data || !clinic.data) return <PageLoading />;
  return (
    <Page
      title={caregiver.data.name}
      width="lg"
      actions={
        <>
          <ClinicPageLink />
          <ActiveButton caregiver={caregiver.data} />
        </>
      }
    >
      {caregiver.data.is_active ? null : (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('caregiver.inactiveNote')}
        </Alert>
      )}
      <CaregiverForm
        caregiver={caregiver.data}
        types={types.data}
        clinic={clinic.data}
        nextSortOrder={caregiver.data.sort_order}
      />
    </Page>
  );
}
