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
import { appointmentDay, formatAppointmentDate, formatAppointmentTimes } from '../format';
import { formatClinicTime, spokenDate, weekdayName } from '../../../lib/clinic-time';
import { SaidAs } from '../../../lib/said-as';
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
  const { t, i18n } = useTranslation();
  const headingId = useId();
  const whenId = useId();
  const hintId = useId();
  const { start_date: start, end_date: end } = appointment;
  const day = appointmentDay(start, timeZone);
  const said = t('appointments.spokenWhen', {
    date: spokenDate(day, i18n.language),
    start: formatClinicTime(start, timeZone, 'HH:mm'),
    end: formatClinicTime(end, timeZone, 'HH:mm'),
  });

  return (
    <Card component="article" variant="outlined" aria-labelledby={headingId}>
      <CardContent sx={{ pb: 1 }}>
        <Typography id={headingId} component="h3" variant="h6">
          <bdi>{appointment.caregiver_name}</bdi>
        </Typography>
        <Typography color="textSecondary">
          <bdi>{appointment.type_name}</bdi>
        </Typography>
        {/* The patient checks the day here: its weekday is shown, and all of it said in words. */}
        <Box id={whenId} sx={{ mt: 1 }}>
          <SaidAs said={said}>
            <Box component="span" sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2 }}>
              <span>
                {weekdayName(day, i18n.language)},{' '}
                <Ltr>{formatAppointmentDate(start, timeZone)}</Ltr>
              </span>
              <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
                <Ltr>{formatAppointmentTimes(start, end, timeZone)}</Ltr>
              </Box>
            </Box>
          </SaidAs>
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
