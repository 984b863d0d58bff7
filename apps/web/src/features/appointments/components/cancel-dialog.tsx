import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import type { PatientAppointment } from '../../../lib/patient-appointments';
import { formatAppointmentDate, formatAppointmentTimes } from '../format';
import { Ltr } from '../../../lib/text-runs';
import { ConfirmDialog, type ConfirmDialogControls } from '../../../lib/confirm-dialog';

interface CancelDialogProps extends ConfirmDialogControls {
  /** Kept while the dialog fades out, so its text does not vanish first. */
  appointment: PatientAppointment | null;
  timeZone: string;
  onConfirm: (appointment: PatientAppointment) => void;
}

/**
 * Confirm before cancelling: return, or cancel the appointment
 * (docs/product/appointments.md#cancelling).
 */
export function CancelDialog({ appointment, timeZone, onConfirm, ...controls }: CancelDialogProps) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      {...controls}
      title={t('appointments.confirmTitle')}
      text={
        // One line each, not joined by "·": a separator left at a line's end reads as a stray
        // dot. Line breaks, not blocks: the dialog's description reads as words with spaces.
        appointment && (
          <Box component="span" sx={{ whiteSpace: 'pre-line' }}>
            <bdi>{appointment.type_name}</bdi>
            {'\n'}
            <bdi>{appointment.caregiver_name}</bdi>
            {'\n'}
            <Ltr>{formatAppointmentDate(appointment.start_date, timeZone)}</Ltr>{' '}
            <Ltr>
              {formatAppointmentTimes(appointment.start_date, appointment.end_date, timeZone)}
            </Ltr>
          </Box>
        )
      }
      returnLabel={t('appointments.return')}
      confirmLabel={t('appointments.confirmCancel')}
      onConfirm={() => appointment && onConfirm(appointment)}
    />
  );
}
