import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { PatientAppointment } from '../api/get-patient-appointments';
import { formatAppointmentDate, formatAppointmentTimes } from '../format';
import { Ltr } from '../../../lib/text-runs';

interface CancelDialogProps {
  open: boolean;
  /** Kept while the dialog fades out, so its text does not vanish first. */
  appointment: PatientAppointment | null;
  timeZone: string;
  pending: boolean;
  onReturn: () => void;
  onConfirm: (appointment: PatientAppointment) => void;
  /** After the closing transition, when focus has gone back to where it was. */
  onExited: () => void;
}

/** SPEC § 2: confirm before cancelling (return / cancel appointment). */
export function CancelDialog({
  open,
  appointment,
  timeZone,
  pending,
  onReturn,
  onConfirm,
  onExited,
}: CancelDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const textId = useId();

  return (
    <Dialog
      open={open}
      onClose={() => {
        if (!pending) onReturn();
      }}
      aria-labelledby={titleId}
      aria-describedby={textId}
      maxWidth="xs"
      fullWidth
      slotProps={{ transition: { onExited } }}
    >
      <DialogTitle id={titleId}>{t('appointments.confirmTitle')}</DialogTitle>
      <DialogContent>
        {appointment && (
          <DialogContentText id={textId}>
            <bdi>{appointment.type_name}</bdi>
            {' · '}
            <bdi>{appointment.caregiver_name}</bdi>
            {' · '}
            <Ltr>{formatAppointmentDate(appointment.start_date, timeZone)}</Ltr>{' '}
            <Ltr>
              {formatAppointmentTimes(appointment.start_date, appointment.end_date, timeZone)}
            </Ltr>
          </DialogContentText>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onReturn} disabled={pending}>
          {t('appointments.return')}
        </Button>
        <Button
          variant="contained"
          color="error"
          loading={pending}
          onClick={() => appointment && onConfirm(appointment)}
        >
          {t('appointments.confirmCancel')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
