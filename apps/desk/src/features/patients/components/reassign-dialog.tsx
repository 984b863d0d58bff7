import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  REASSIGN_REASON_MAX_LENGTH,
  reassignPatientBodySchema,
  type IntegrationPatient,
  type ReassignedPatient,
  type ReassignPatientBody,
} from '@marpe/shared';
import { useMutation } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api';
import {
  errorText,
  serverFieldErrors,
  validate,
  type FieldErrors,
} from '../../../lib/field-errors';
import { reassignPatient } from '../api/patients';

const isFullPhone = (error: unknown) =>
  error instanceof ApiError && error.code === 'too_many_identities';

/**
 * The errors at their fields: a full phone at the phone, the unticked confirmation in the
 * dialog's own words (the schema's message is the API's English).
 */
export function reassignErrors(t: TFunction, errors: FieldErrors): FieldErrors {
  return errors.identity_document_checked === undefined
    ? errors
    : { ...errors, identity_document_checked: t('reassign.documentRequired') };
}

/**
 * Gives the ID number back to its owner, after someone else signed up with it and their own
 * phone: the owner's phone and names, typed from what they show (nothing of the record's is
 * filled in, so no stranger's name is kept by accident), why, and the confirmation that an
 * identity document was checked. A failed call keeps what was typed.
 */
export function ReassignDialog({
  patient,
  open,
  onClose,
  onReassigned,
}: {
  patient: IntegrationPatient;
  open: boolean;
  onClose: () => void;
  onReassigned: (result: ReassignedPatient) => void;
}) {
  const { t } = useTranslation('patients');
  const id = useId();
  const [phone, setPhone] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [reason, setReason] = useState('');
  const [checked, setChecked] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: (body: ReassignPatientBody) => reassignPatient(patient.id_number, body),
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const body = {
      phone,
      first_name: firstName,
      last_name: lastName,
      identity_document_checked: checked,
      reason,
    };
    const valid = validate(t, reassignPatientBodySchema, body);
    if (valid.errors) {
      setErrors(reassignErrors(t, valid.errors));
      return;
    }
    setErrors({});
    try {
      onReassigned(await save.mutateAsync(valid.data));
    } catch (failure) {
      if (isFullPhone(failure)) setErrors({ phone: errorText(t, failure) });
      else setErrors(reassignErrors(t, serverFieldErrors(t, failure) ?? {}));
    }
  }

  const formFailure =
    save.isError && serverFieldErrors(t, save.error) === null && !isFullPhone(save.error)
      ? errorText(t, save.error)
      : null;

  return (
    <Dialog
      open={open}
      onClose={save.isPending ? undefined : onClose}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-intro`}
      maxWidth="sm"
      fullWidth
    >
      <form noValidate onSubmit={(e) => void submit(e)}>
        <DialogTitle id={`${id}-title`}>
          {t('reassign.title', { idNumber: patient.id_number })}
        </DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <div id={`${id}-intro`}>
              <Typography sx={{ mb: 1 }}>{t('reassign.intro')}</Typography>
              <Typography>{t('reassign.effects')}</Typography>
            </div>
            <TextField
              label={t('reassign.phone')}
              value={phone}
              onChange={(e) => setPhone(e.target.value)}
              error={errors.phone !== undefined}
              helperText={errors.phone ?? t('reassign.phoneHelp')}
              type="tel"
              autoComplete="off"
              slotProps={{ htmlInput: { dir: 'ltr', inputMode: 'tel' } }}
              required
              autoFocus
            />
            <TextField
              label={t('reassign.firstName')}
              value={firstName}
              onChange={(e) => setFirstName(e.target.value)}
              error={errors.first_name !== undefined}
              helperText={errors.first_name ?? ' '}
              autoComplete="off"
              required
            />
            <TextField
              label={t('reassign.lastName')}
              value={lastName}
              onChange={(e) => setLastName(e.target.value)}
              error={errors.last_name !== undefined}
              helperText={errors.last_name ?? ' '}
              autoComplete="off"
              required
            />
            <TextField
              label={t('reassign.reason')}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              error={errors.reason !== undefined}
              helperText={errors.reason ?? t('reassign.reasonHelp')}
              slotProps={{ htmlInput: { maxLength: REASSIGN_REASON_MAX_LENGTH } }}
              multiline
              minRows={2}
              required
            />
            <FormControl error={errors.identity_document_checked !== undefined} required>
              <FormControlLabel
                control={
                  <Checkbox
                    checked={checked}
                    onChange={(e) => setChecked(e.target.checked)}
                    slotProps={{
                      input: {
                        'aria-describedby': `${id}-document-help`,
                        'aria-invalid': errors.identity_document_checked !== undefined,
                        required: true,
                      },
                    }}
                  />
                }
                label={t('reassign.document', { idNumber: patient.id_number })}
              />
              <FormHelperText id={`${id}-document-help`} sx={{ mt: 0 }}>
                {errors.identity_document_checked ?? t('reassign.documentHelp')}
              </FormHelperText>
            </FormControl>
            {formFailure ? <Alert severity="error">{formFailure}</Alert> : null}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={save.isPending}>
            {t('common:cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={save.isPending}>
            {t('reassign.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
