import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  CANCEL_REASON_MAX_LENGTH,
  clinicCancelBodySchema,
  type IntegrationAppointment,
} from '@marpe/shared';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  errorText,
  serverFieldErrors,
  validate,
  type FieldErrors,
} from '../../../lib/field-errors';
import { cancelAppointment } from '../api/cancel-appointment';
import { formatWhen } from '../clinic-time';
import { patientName } from '../diary-events';

const quickReasons = ['patient', 'caregiver', 'clinic', 'duplicate', 'rebooked'] as const;

/**
 * Cancels an appointment with a reason (typed, or one of the common ones) kept by the clinic,
 * and tells the patient unless unticked. A failure is said here; nothing typed is lost.
 */
export function CancelDialog({
  appointment,
  zone,
  onClose,
  onCancelled,
}: {
  appointment: IntegrationAppointment | null;
  zone: string;
  onClose: () => void;
  onCancelled: (appointment: IntegrationAppointment) => void;
}) {
  const { t, i18n } = useTranslation('diary');
  const id = useId();
  const [reason, setReason] = useState('');
  const [notify, setNotify] = useState(true);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!appointment) return;
    setFailure(null);
    const checked = validate(t, clinicCancelBodySchema, {
      ...(reason.trim() ? { reason } : {}),
      send_sms: notify,
    });
    if (checked.errors) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      onCancelled(await cancelAppointment(appointment.id, checked.data ?? {}));
      onClose();
    } catch (error) {
      const fields = serverFieldErrors(t, error);
      if (fields) setErrors(fields);
      setFailure(errorText(t, error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={appointment !== null}
      onClose={busy ? undefined : onClose}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-intro`}
      fullWidth
      maxWidth="sm"
    >
      <form noValidate onSubmit={(e) => void submit(e)}>
        <DialogTitle id={`${id}-title`}>{t('cancel.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText id={`${id}-intro`}>
            {appointment
              ? t('cancel.intro', {
                  name: patientName(appointment),
                  type: appointment.appointment_type.name,
                  when: formatWhen(appointment.start_date, zone, i18n.language),
                })
              : null}
          </DialogContentText>
          <Stack spacing={2} sx={{ pt: 2 }}>
            <TextField
              label={t('cancel.reason')}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              multiline
              minRows={2}
              error={Boolean(errors.reason)}
              helperText={errors.reason ?? t('cancel.reasonHelp')}
              slotProps={{ htmlInput: { maxLength: CANCEL_REASON_MAX_LENGTH } }}
              autoFocus
            />
            <div role="group" aria-labelledby={`${id}-quick`}>
              <Typography id={`${id}-quick`} variant="body2" sx={{ mb: 1 }}>
                {t('cancel.quickReasons')}
              </Typography>
              <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: 'wrap' }}>
                {quickReasons.map((key) => {
                  const text = t(`cancel.reasons.${key}`);
                  return (
                    <Chip
                      key={key}
                      label={text}
                      onClick={() => setReason(text)}
                      variant={reason === text ? 'filled' : 'outlined'}
                      aria-pressed={reason === text}
                    />
                  );
                })}
              </Stack>
            </div>
            <FormControlLabel
              control={<Checkbox checked={notify} onChange={(e) => setNotify(e.target.checked)} />}
              label={t('cancel.notify')}
            />
            {failure ? (
              <Alert severity="error" role="alert">
                {failure}
              </Alert>
            ) : null}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            {t('cancel.keep')}
          </Button>
          <Button type="submit" variant="contained" color="error" loading={busy}>
            {t('cancel.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
