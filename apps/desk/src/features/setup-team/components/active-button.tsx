import Button from '@mui/material/Button';
import type { IntegrationCaregiver } from '@marpe/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../lib/confirm-dialog';
import { errorText } from '../../../lib/field-errors';
import { useNotify } from '../../../lib/notify';
import { caregiversQueryKey, deactivateCaregiver, updateCaregiver } from '../api/caregivers';

/** Deactivate (asked first: it leaves the clinic page, its appointments stay) or reactivate. */
export function ActiveButton({ caregiver }: { caregiver: IntegrationCaregiver }) {
  const { t } = useTranslation('setup-team');
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [asking, setAsking] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: caregiversQueryKey });
  const reactivate = useMutation({
    mutationFn: () => updateCaregiver(caregiver.id, { is_active: true }),
    onSuccess: async () => {
      await refresh();
      notify(t('caregivers.reactivated', { name: caregiver.name }));
    },
    onError: (error) => notify(errorText(t, error), 'error'),
  });
  if (!caregiver.is_active) {
    return (
      <Button variant="outlined" loading={reactivate.isPending} onClick={() => reactivate.mutate()}>
        {t('caregivers.reactivate')}
      </Button>
    );
  }
  return (
    <>
      <Button variant="outlined" color="error" onClick={() => setAsking(true)}>
        {t('caregivers.deactivate')}
      </Button>
      <ConfirmDialog
        open={asking}
        title={t('caregivers.deactivateTitle', { name: caregiver.name })}
        body={t('caregivers.deactivateBody')}
        confirmLabel={t('caregivers.deactivate')}
        destructive
        onClose={() => setAsking(false)}
        onConfirm={async () => {
          await deactivateCaregiver(caregiver.id);
          await refresh();
          notify(t('caregivers.deactivated', { name: caregiver.name }));
        }}
      />
    </>
  );
}
