import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  normaliseIsraeliMobile,
  updatePatientBodySchema,
  type IntegrationPatient,
  type UpdatePatientBody,
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
import { ApiError } from '../../../lib/api';
import { formatPhone } from '../../../lib/format';
import { correctPatient } from '../api/patients';

/** What the form changes: only the fields that differ from the record (null: nothing). */
export function changesOf(
  patient: IntegrationPatient,
  typed: { first_name: string; last_name: string; phone: string },
): UpdatePatientBody | null {
  const body: UpdatePatientBody = {};
  if (typed.first_name.trim() !== patient.first_name) body.first_name = typed.first_name;
  if (typed.last_name.trim() !== patient.last_name) body.last_name = typed.last_name;
  if ((normaliseIsraeliMobile(typed.phone) ?? typed.phone) !== patient.phone)
    body.phone = typed.phone;
  return Object.keys(body).length === 0 ? null : body;
}

/**
 * Corrects a patient's names and mobile. Checked as the server checks it, each refusal at its
 * field; a failed call keeps what was typed.
 */
export function CorrectDialog({
  patient,
  open,
  onClose,
  onCorrected,
}: {
  patient: IntegrationPatient;
  open: boolean;
  onClose: () => void;
  onCorrected: (patient: IntegrationPatient | null) => void;
}) {
  const { t } = useTranslation('patients');
  const id = useId();
  const [firstName, setFirstName] = useState(patient.first_name);
  const [lastName, setLastName] = useState(patient.last_name);
  const [phone, setPhone] = useState(formatPhone(patient.phone));
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: (body: UpdatePatientBody) => correctPatient(patient.id_number, body),
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const body = changesOf(patient, { first_name: firstName, last_name: lastName, phone });
    if (body === null) {
      onCorrected(null);
      return;
    }
    const checked = validate(t, updatePatientBodySchema, body);
    if (checked.errors) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    try {
      onCorrected(await save.mutateAsync(body));
    } catch (failure) {
      // The number already signs in as many patients as one phone may: said at the phone.
      if (failure instanceof ApiError && failure.code === 'too_many_identities') {
        setErrors({ phone: errorText(t, failure) });
      } else {
        setErrors(serverFieldErrors(t, failure) ?? {});
      }
    }
  }

  const formFailure =
    save.isError &&
    serverFieldErrors(t, save.error) === null &&
    !(save.error instanceof ApiError && save.error.code === 'too_many_identities')
      ? errorText(t, save.error)
      : null;
  const name = `${patient.first_name} ${patient.last_name}`;

  return (
    <Dialog
      open={open}
      onClose={save.isPending ? undefined : onClose}
      aria-labelledby={`${id}-title`}
      maxWidth="sm"
      fullWidth
    >
      <form noValidate onSubmit={(e) => void submit(e)}>
        <DialogTitle id={`${id}-title`}>{t('correct.title', { name })}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <Typography>{t('correct.intro')}</Typography>
            <TextField
              label={t('correct.firstName')}
              value={firstName}
              onChange={(e) => setFirstName(e.target.value)}
              error={errors.first_name !== undefined}
              helperText={errors.first_name ?? ' '}
              autoComplete="off"
              required
              autoFocus
            />
            <TextField
              label={t('correct.lastName')}
              value={lastName}
              onChange={(e) => setLastName(e.target.value)}
              error={errors.last_name !== undefined}
              helperText={errors.last_name ?? ' '}
              autoComplete="off"
              required
            />
            <TextField
              label={t('correct.phone')}
              value={phone}
              onChange={(e) => setPhone(e.target.value)}
              error={errors.phone !== undefined}
              helperText={errors.phone ?? t('correct.phoneHelp')}
              type="tel"
              autoComplete="off"
              slotProps={{ htmlInput: { dir: 'ltr', inputMode: 'tel' } }}
              required
            />
            {formFailure ? <Alert severity="error">{formFailure}</Alert> : null}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={save.isPending}>
            {t('common:cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={save.isPending}>
            {t('correct.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
