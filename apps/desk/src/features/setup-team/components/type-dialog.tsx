import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  createAppointmentTypeBodySchema,
  type IntegrationAppointmentType,
  type IntegrationCaregiver,
} from '@marpe/shared';
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  errorText,
  serverFieldErrors,
  validate,
  type FieldErrors,
} from '../../../lib/field-errors';
import { createAppointmentType, updateAppointmentType } from '../api/appointment-types';
import { ruleValueOf } from '../caregiver-schedule';

/**
 * Adds or edits an appointment type: its name, its length (1–480 minutes) and the caregivers who
 * offer it. Mounted per opening, so it starts from the type it edits.
 */
export function TypeDialog({
  type,
  caregivers,
  onClose,
  onSaved,
}: {
  /** null: a new type. */
  type: IntegrationAppointmentType | null;
  caregivers: IntegrationCaregiver[];
  onClose: () => void;
  onSaved: (saved: IntegrationAppointmentType) => void;
}) {
  const { t } = useTranslation('setup-team');
  const id = useId();
  const [open, setOpen] = useState(true);
  const [name, setName] = useState(type?.name ?? '');
  const [minutes, setMinutes] = useState(type ? String(type.duration_minutes) : '');
  const [caregiverIds, setCaregiverIds] = useState<number[]>(
    type?.caregiver_ids ?? caregivers.filter((c) => c.is_active).map((c) => c.id),
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: (body: { name: string; duration_minutes: number; caregiver_ids: number[] }) =>
      type ? updateAppointmentType(type.id, body) : createAppointmentType(body),
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = validate(t, createAppointmentTypeBodySchema, {
      name,
      duration_minutes: ruleValueOf(minutes),
      caregiver_ids: caregiverIds,
    });
    const found: FieldErrors = { ...checked.errors };
    if (minutes.trim() === '') found.duration_minutes = t('common:validation.required');
    if (Object.keys(found).length > 0 || !checked.data) {
      setErrors(found);
      return;
    }
    setErrors({});
    try {
      const saved = await save.mutateAsync({
        name: checked.data.name,
        duration_minutes: checked.data.duration_minutes,
        caregiver_ids: checked.data.caregiver_ids ?? [],
      });
      onSaved(saved);
      setOpen(false);
    } catch (failure) {
      const fields = serverFieldErrors(t, failure);
      if (fields) setErrors(fields);
    }
  }

  const caregiversError =
    errors.caregiver_ids ??
    Object.entries(errors).find(([key]) => key.startsWith('caregiver_ids.'))?.[1];
  const otherFailure = save.isError && serverFieldErrors(t, save.error) === null;
  return (
    <Dialog
      open={open}
      onClose={save.isPending ? undefined : () => setOpen(false)}
      aria-labelledby={`${id}-title`}
      fullWidth
      maxWidth="sm"
      slotProps={{ transition: { onExited: onClose } }}
    >
      <form noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id={`${id}-title`}>
          {type ? t('types.editTitle', { name: type.name }) : t('types.newTitle')}
        </DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label={t('types.name')}
              value={name}
              onChange={(event) => setName(event.target.value)}
              error={errors.name !== undefined}
              helperText={errors.name ?? t('types.nameHelp')}
              required
              autoFocus
              autoComplete="off"
            />
            <TextField
              type="number"
              label={t('types.duration')}
              value={minutes}
              onChange={(event) => setMinutes(event.target.value)}
              error={errors.duration_minutes !== undefined}
              helperText={errors.duration_minutes ?? t('types.durationHelp')}
              required
              sx={{ maxWidth: 240 }}
              slotProps={{ htmlInput: { min: 1, max: 480, dir: 'ltr' } }}
            />
            {caregivers.length === 0 ? (
              <Typography color="text.secondary">{t('types.noCaregivers')}</Typography>
            ) : (
              <FormControl component="fieldset" error={caregiversError !== undefined}>
                <FormLabel component="legend">{t('types.offeredBy')}</FormLabel>
                <FormGroup>
                  {caregivers.map((caregiver) => (
                    <FormControlLabel
                      key={caregiver.id}
                      control={
                        <Checkbox
                          checked={caregiverIds.includes(caregiver.id)}
                          onChange={(event) =>
                            setCaregiverIds((ids) =>
                              event.target.checked
                                ? [...ids, caregiver.id]
                                : ids.filter((c) => c !== caregiver.id),
                            )
                          }
                        />
                      }
                      label={
                        caregiver.is_active
                          ? caregiver.name
                          : t('types.inactiveCaregiver', { name: caregiver.name })
                      }
                    />
                  ))}
                </FormGroup>
                {caregiversError ? <FormHelperText>{caregiversError}</FormHelperText> : null}
              </FormControl>
            )}
            {otherFailure ? <Alert severity="error">{errorText(t, save.error)}</Alert> : null}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)} disabled={save.isPending}>
            {t('common:cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={save.isPending}>
            {type ? t('common:save') : t('types.add')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
