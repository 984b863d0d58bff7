import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { PatientAppointment } from '../../../lib/patient-appointments';
import { formatAppointmentDate, formatAppointmentTimes } from '../format';
import { Ltr, VisuallyHidden } from '../../../lib/text-runs';

interface AppointmentCardProps {
  appointment: PatientAppointment;
  clinicId: number;
  timeZone: string;
  onCancel: (appointment: PatientAppointment) => void;
}

/** The booking steps preselected on the appointment's caregiver and type, moving it on confirm. */
function reschedulePath(clinicId: number, appointment: PatientAppointment): string {
  const query = new URLSearchParams({
    caregiverId: String(appointment.caregiver_id),
    appointmentTypeId: String(appointment.appointment_type_id),
    reschedule: String(appointment.id),
  });
  return `/booking/${clinicId}?${query.toString()}`;
}

export function AppointmentCard({
  appointment,
  clinicId,
  timeZone,
  onCancel,
}: AppointmentCardProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const whenId = useId();
  const hintId = useId();
  const date = formatAppointmentDate(appointment.start_date, timeZone);
  const times = formatAppointmentTimes(appointment.start_date, appointment.end_date, timeZone);

  return (
    <Card component="article" variant="outlined" aria-labelledby={headingId}>
      <CardContent sx={{ pb: 1 }}>
        <Typography id={headingId} component="h3" variant="h6">
          <bdi>{appointment.caregiver_name}</bdi>
        </Typography>
        <Typography color="textSecondary">
          <bdi>{appointment.type_name}</bdi>
        </Typography>
        <Box id={whenId} sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2, mt: 1 }}>
          <span>
            <VisuallyHidden>{t('appointments.date')}: </VisuallyHidden>
            <Ltr>{date}</Ltr>
          </span>
          <span>
            <VisuallyHidden>{t('appointments.time')}: </VisuallyHidden>
            <Ltr>{times}</Ltr>
          </span>
        </Box>
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2 }}>
        {appointment.is_marpe_cancellable ? (
          <>
            <Button
              component={RouterLink}
              to={reschedulePath(clinicId, appointment)}
              variant="outlined"
              aria-describedby={whenId}
            >
              {t('appointments.reschedule')}
            </Button>
            <Button
              variant="outlined"
              color="error"
              aria-describedby={whenId}
              onClick={() => onCancel(appointment)}
            >
              {t('appointments.cancel')}
            </Button>
          </>
        ) : (
          <>
            {/*
              Not `disabled`: a disabled button leaves the tab order, and its tooltip with it.
              aria-disabled keeps it focusable; the tooltip shows on focus and hover, and the
              same text is its description for screen readers.
            */}
            <Tooltip title={t('appointments.cannotCancel')} describeChild>
              <Button
                variant="outlined"
                aria-disabled="true"
                aria-describedby={`${whenId} ${hintId}`}
                onClick={(event) => event.preventDefault()}
                sx={{
                  color: 'text.disabled',
                  borderColor: 'action.disabledBackground',
                  cursor: 'not-allowed',
                  '&:hover': { borderColor: 'action.disabledBackground', bgcolor: 'transparent' },
                }}
              >
                {t('appointments.cancel')}
              </Button>
            </Tooltip>
            <VisuallyHidden id={hintId}>{t('appointments.cannotCancel')}</VisuallyHidden>
          </>
        )}
      </CardActions>
    </Card>
  );
}
