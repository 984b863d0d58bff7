import AddIcon from '../../lib/icons/add';
import ArrowDownwardIcon from '../../lib/icons/arrow-downward';
import ArrowUpwardIcon from '../../lib/icons/arrow-upward';
import WarningAmberIcon from '../../lib/icons/warning-amber';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { IntegrationAppointmentType, IntegrationCaregiver } from '@marpe/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ConfirmDialog } from '../../lib/confirm-dialog';
import { errorText } from '../../lib/field-errors';
import { useNotify } from '../../lib/notify';
import { PageLoading } from '../../lib/page-loading';
import { StepPage } from '../../lib/setup-step';
import { appointmentTypesQueryKey, listAppointmentTypes } from './api/appointment-types';
import {
  caregiversQueryKey,
  deactivateCaregiver,
  listCaregivers,
  updateCaregiver,
} from './api/caregivers';
import { hasWeeklyHours, moved, sortOrderChanges } from './caregiver-schedule';

type Direction = -1 | 1;

/** `/setup/caregivers`: the caregivers in the clinic page's order, to add, edit, move, deactivate. */
export function CaregiversPage() {
  return (
    <StepPage step="caregivers" width="lg" actions={<AddCaregiver />}>
      <Caregivers />
    </StepPage>
  );
}

/** The way to add a caregiver: a page of its own (`/setup/caregivers/new`). */
function AddCaregiver() {
  const { t } = useTranslation('setup-team');
  return (
    <Button
      component={RouterLink}
      to="/setup/caregivers/new"
      variant="contained"
      startIcon={<AddIcon />}
    >
      {t('caregivers.add')}
    </Button>
  );
}

function Caregivers() {
  const { t } = useTranslation('setup-team');
  const queryClient = useQueryClient();
  const notify = useNotify();
  const caregivers = useQuery({ queryKey: caregiversQueryKey, queryFn: listCaregivers });
  const types = useQuery({ queryKey: appointmentTypesQueryKey, queryFn: listAppointmentTypes });
  const [deactivating, setDeactivating] = useState<IntegrationCaregiver | null>(null);
  // The move button to focus once a move re-renders the list (the row moved under the keyboard).
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const focusAfterMove = useRef<{ id: number; by: Direction } | null>(null);

  const reorder = useMutation({
    // One order change at a time, in the order they were made.
    scope: { id: 'setup-team-caregiver-order' },
    mutationFn: async (changes: { id: number; sort_order: number }[]) => {
      for (const change of changes) {
        await updateCaregiver(change.id, { sort_order: change.sort_order });
      }
    },
    onError: (error) => notify(errorText(t, error), 'error'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: caregiversQueryKey }),
  });

  const reactivate = useMutation({
    mutationFn: (caregiver: IntegrationCaregiver) =>
      updateCaregiver(caregiver.id, { is_active: true }),
    onSuccess: async (caregiver) => {
      await queryClient.invalidateQueries({ queryKey: caregiversQueryKey });
      notify(t('caregivers.reactivated', { name: caregiver.name }));
    },
    onError: (error) => notify(errorText(t, error), 'error'),
  });

  function move(caregiver: IntegrationCaregiver, by: Direction) {
    const list = caregivers.data ?? [];
    const order = moved(
      list.map((c) => c.id),
      caregiver.id,
      by,
    );
    const changes = sortOrderChanges(order, new Map(list.map((c) => [c.id, c.sort_order])));
    if (changes.length === 0) return;
    // Shown at once; the server's order follows.
    const byId = new Map(list.map((c) => [c.id, c]));
    queryClient.setQueryData<IntegrationCaregiver[]>(
      caregiversQueryKey,
      order.map((id, place) => ({ ...(byId.get(id) as IntegrationCaregiver), sort_order: place })),
    );
    focusAfterMove.current = { id: caregiver.id, by };
    reorder.mutate(changes);
    notify(
      t('caregivers.movedTo', { name: caregiver.name, place: order.indexOf(caregiver.id) + 1 }),
      'info',
    );
  }

  useEffect(() => {
    if (!focusAfterMove.current) return;
    const { id, by } = focusAfterMove.current;
    focusAfterMove.current = null;
    const same = buttons.current.get(`${id}:${by}`);
    const other = buttons.current.get(`${id}:${-by}`);
    (same && !same.disabled ? same : other)?.focus();
  }, [caregivers.data]);

  return (
    <>
      <Typography sx={{ mb: 2 }}>{t('caregivers.intro')}</Typography>
      {caregivers.isError ? (
        <Alert severity="error">{errorText(t, caregivers.error)}</Alert>
      ) : !caregivers.data ? (
        <PageLoading />
      ) : caregivers.data.length === 0 ? (
        <Paper sx={{ p: 3 }}>
          <Typography>{t('caregivers.none')}</Typography>
        </Paper>
      ) : (
        <Stack
          component="ol"
          aria-label={t('caregivers.listLabel')}
          spacing={1.5}
          sx={{ listStyle: 'none', p: 0, m: 0 }}
        >
          {caregivers.data.map((caregiver, index, all) => (
            <CaregiverRow
              key={caregiver.id}
              caregiver={caregiver}
              types={types.data ?? []}
              first={index === 0}
              last={index === all.length - 1}
              onMove={(by) => move(caregiver, by)}
              onDeactivate={() => setDeactivating(caregiver)}
              onReactivate={() => reactivate.mutate(caregiver)}
              buttonRef={(by, element) => {
                const key = `${caregiver.id}:${by}`;
                if (element) buttons.current.set(key, element);
                else buttons.current.delete(key);
              }}
            />
          ))}
        </Stack>
      )}

      <ConfirmDialog
        open={deactivating !== null}
        title={t('caregivers.deactivateTitle', { name: deactivating?.name ?? '' })}
        body={t('caregivers.deactivateBody')}
        confirmLabel={t('caregivers.deactivate')}
        destructive
        onClose={() => setDeactivating(null)}
        onConfirm={async () => {
          if (!deactivating) return;
          await deactivateCaregiver(deactivating.id);
          await queryClient.invalidateQueries({ queryKey: caregiversQueryKey });
          notify(t('caregivers.deactivated', { name: deactivating.name }));
        }}
      />
    </>
  );
}

function Fact({ warn, children }: { warn?: boolean; children: ReactNode }) {
  return (
    <Typography
      variant="body2"
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 0.5,
        color: warn ? 'warning.main' : 'text.secondary',
      }}
    >
      {warn ? <WarningAmberIcon fontSize="small" aria-hidden /> : null}
      {children}
    </Typography>
  );
}

function CaregiverRow({
  caregiver,
  types,
  first,
  last,
  onMove,
  onDeactivate,
  onReactivate,
  buttonRef,
}: {
  caregiver: IntegrationCaregiver;
  types: IntegrationAppointmentType[];
  first: boolean;
  last: boolean;
  onMove: (by: Direction) => void;
  onDeactivate: () => void;
  onReactivate: () => void;
  buttonRef: (by: Direction, element: HTMLButtonElement | null) => void;
}) {
  const { t } = useTranslation('setup-team');
  const offered = types.filter((type) => caregiver.appointment_type_ids.includes(type.id));
  const hours = hasWeeklyHours(caregiver.marpe_rules.weekly_hours);
  return (
    <Paper component="li" sx={{ p: 2 }}>
      <Stack
        direction="row"
        spacing={2}
        useFlexGap
        sx={{ alignItems: 'flex-start', flexWrap: 'wrap' }}
      >
        <Avatar
          src={caregiver.image ?? undefined}
          alt=""
          variant="rounded"
          sx={{ width: 56, height: 56, bgcolor: 'secondary.main', color: 'text.primary' }}
        >
          {caregiver.name.trim().charAt(0)}
        </Avatar>
        <Box sx={{ flex: '1 1 260px', minWidth: 0 }}>
          <Stack
            direction="row"
            spacing={1}
            useFlexGap
            sx={{ alignItems: 'center', flexWrap: 'wrap' }}
          >
            <Typography component="h2" variant="h3" sx={{ fontWeight: 700 }}>
              {caregiver.name}
            </Typography>
            <Chip
              size="small"
              label={caregiver.is_active ? t('caregivers.active') : t('caregivers.inactive')}
              color={caregiver.is_active ? 'success' : 'default'}
            />
          </Stack>
          <Fact>{t('caregivers.license', { number: caregiver.license_number })}</Fact>
          {offered.length > 0 ? (
            <Fact>
              {t('caregivers.offers', { types: offered.map((type) => type.name).join(', ') })}
            </Fact>
          ) : (
            <Fact warn>{t('caregivers.offersNone')}</Fact>
          )}
          {hours ? (
            <Fact>{t('caregivers.hasHours')}</Fact>
          ) : (
            <Fact warn>{t('caregivers.noHours')}</Fact>
          )}
        </Box>
        <Stack
          direction="row"
          spacing={1}
          useFlexGap
          sx={{ alignItems: 'center', flexWrap: 'wrap' }}
        >
          <IconButton
            ref={(element) => buttonRef(-1, element)}
            onClick={() => onMove(-1)}
            disabled={first}
            aria-label={t('caregivers.moveUp', { name: caregiver.name })}
          >
            <ArrowUpwardIcon />
          </IconButton>
          <IconButton
            ref={(element) => buttonRef(1, element)}
            onClick={() => onMove(1)}
            disabled={last}
            aria-label={t('caregivers.moveDown', { name: caregiver.name })}
          >
            <ArrowDownwardIcon />
          </IconButton>
          <Button
            component={RouterLink}
            to={`/setup/caregivers/${caregiver.id}`}
            variant="outlined"
          >
            {t('common:edit')}
            <span className="visually-hidden"> {caregiver.name}</span>
          </Button>
          {caregiver.is_active ? (
            <Button color="error" onClick={onDeactivate}>
              {t('caregivers.deactivate')}
              <span className="visually-hidden"> {caregiver.name}</span>
            </Button>
          ) : (
            <Button onClick={onReactivate}>
              {t('caregivers.reactivate')}
              <span className="visually-hidden"> {caregiver.name}</span>
            </Button>
          )}
        </Stack>
      </Stack>
    </Paper>
  );
}
