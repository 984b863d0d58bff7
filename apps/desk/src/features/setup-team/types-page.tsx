import AddIcon from '../../lib/icons/add';
import WarningAmberIcon from '../../lib/icons/warning-amber';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { IntegrationAppointmentType } from '@marpe/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api';
import { ConfirmDialog } from '../../lib/confirm-dialog';
import { errorText } from '../../lib/field-errors';
import { useNotify } from '../../lib/notify';
import { PageLoading } from '../../lib/page-loading';
import { StepPage } from '../../lib/setup-step';
import {
  appointmentTypesQueryKey,
  deleteAppointmentType,
  listAppointmentTypes,
  updateAppointmentType,
} from './api/appointment-types';
import { caregiversQueryKey, listCaregivers } from './api/caregivers';
import { TypeDialog } from './components/type-dialog';

/** `/setup/types`: the appointment types patients choose from, their length and who offers them. */
export function TypesPage() {
  return (
    <StepPage step="types" width="lg">
      <Types />
    </StepPage>
  );
}

function Types() {
  const { t } = useTranslation('setup-team');
  const queryClient = useQueryClient();
  const notify = useNotify();
  const types = useQuery({ queryKey: appointmentTypesQueryKey, queryFn: listAppointmentTypes });
  const caregivers = useQuery({ queryKey: caregiversQueryKey, queryFn: listCaregivers });
  // undefined: closed; null: a new type.
  const [editing, setEditing] = useState<IntegrationAppointmentType | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<IntegrationAppointmentType | null>(null);
  const [inUse, setInUse] = useState<IntegrationAppointmentType | null>(null);

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: appointmentTypesQueryKey });
    // A caregiver's types are the other side of the same link.
    await queryClient.invalidateQueries({ queryKey: caregiversQueryKey });
  };
  const caregiverName = new Map((caregivers.data ?? []).map((c) => [c.id, c.name]));

  return (
    <>
      <Stack
        direction="row"
        spacing={2}
        useFlexGap
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', mb: 2 }}
      >
        <Typography>{t('types.intro')}</Typography>
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          onClick={() => setEditing(null)}
          disabled={!caregivers.data}
        >
          {t('types.add')}
        </Button>
      </Stack>
      {types.isError || caregivers.isError ? (
        <Alert severity="error">{errorText(t, types.error ?? caregivers.error)}</Alert>
      ) : !types.data || !caregivers.data ? (
        <PageLoading />
      ) : types.data.length === 0 ? (
        <Paper sx={{ p: 3 }}>
          <Typography>{t('types.none')}</Typography>
        </Paper>
      ) : (
        <Stack
          component="ul"
          aria-label={t('types.listLabel')}
          spacing={1.5}
          sx={{ listStyle: 'none', p: 0, m: 0 }}
        >
          {types.data.map((type) => (
            <Paper component="li" key={type.id} sx={{ p: 2 }}>
              <Stack
                direction="row"
                spacing={2}
                useFlexGap
                sx={{ alignItems: 'center', flexWrap: 'wrap' }}
              >
                <Box sx={{ flex: '1 1 260px', minWidth: 0 }}>
                  <Typography component="h2" variant="h3" sx={{ fontWeight: 700 }}>
                    {type.name}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {t('types.minutes', { count: type.duration_minutes })}
                  </Typography>
                  {type.caregiver_ids.length > 0 ? (
                    <Typography variant="body2" color="text.secondary">
                      {t('types.offeredByList', {
                        names: type.caregiver_ids
                          .map((id) => caregiverName.get(id))
                          .filter(Boolean)
                          .join(', '),
                      })}
                    </Typography>
                  ) : (
                    <Typography
                      variant="body2"
                      sx={{
                        color: 'warning.main',
                        display: 'flex',
                        gap: 0.5,
                        alignItems: 'center',
                      }}
                    >
                      <WarningAmberIcon fontSize="small" aria-hidden />
                      {t('types.offeredByNone')}
                    </Typography>
                  )}
                </Box>
                <Stack direction="row" spacing={1}>
                  <Button variant="outlined" onClick={() => setEditing(type)}>
                    {t('common:edit')}
                    <span className="visually-hidden"> {type.name}</span>
                  </Button>
                  <Button color="error" onClick={() => setDeleting(type)}>
                    {t('common:delete')}
                    <span className="visually-hidden"> {type.name}</span>
                  </Button>
                </Stack>
              </Stack>
            </Paper>
          ))}
        </Stack>
      )}

      {editing !== undefined && caregivers.data ? (
        <TypeDialog
          type={editing}
          caregivers={caregivers.data}
          onClose={() => setEditing(undefined)}
          onSaved={(saved) => {
            void refresh();
            notify(t(editing ? 'types.saved' : 'types.added', { name: saved.name }));
          }}
        />
      ) : null}

      <ConfirmDialog
        open={deleting !== null}
        title={t('types.deleteTitle', { name: deleting?.name ?? '' })}
        body={t('types.deleteBody')}
        confirmLabel={t('common:delete')}
        destructive
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          try {
            await deleteAppointmentType(deleting.id);
          } catch (failure) {
            // Appointments are of this type: they keep it, so it can only stop being offered.
            if (failure instanceof ApiError && failure.status === 409) {
              if (deleting.caregiver_ids.length > 0) setInUse(deleting);
              else notify(t('types.inUseNotOffered', { name: deleting.name }), 'info');
              return;
            }
            throw failure;
          }
          await refresh();
          notify(t('types.deleted', { name: deleting.name }));
        }}
      />

      <ConfirmDialog
        open={inUse !== null}
        title={t('types.inUseTitle', { name: inUse?.name ?? '' })}
        body={t('types.inUseBody')}
        confirmLabel={t('types.stopOffering')}
        onClose={() => setInUse(null)}
        onConfirm={async () => {
          if (!inUse) return;
          await updateAppointmentType(inUse.id, { caregiver_ids: [] });
          await refresh();
          notify(t('types.stoppedOffering', { name: inUse.name }));
        }}
      />
    </>
  );
}
