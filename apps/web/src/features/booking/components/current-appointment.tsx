import type { PatientAppointment } from '@marpe/shared';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Ltr } from '../../../lib/text-runs';
import { formatDate, formatTime } from '../format';
import { SpokenDate } from './spoken-date';

/** "Change time": the appointment being moved, so the patient sees what they change. */
export function CurrentAppointment({
  appointment,
  timeZone,
}: {
  appointment: PatientAppointment;
  timeZone: string;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <Card component="section" variant="outlined" aria-labelledby={headingId} sx={{ mb: 3 }}>
      <CardContent sx={{ '&:last-child': { pb: 2 } }}>
        <Typography id={headingId} component="h2" variant="subtitle1" sx={{ fontWeight: 500 }}>
          {t('booking.currentAppointment')}
        </Typography>
        <Typography>
          <bdi>{appointment.type_name}</bdi>
          {', '}
          <bdi>{appointment.caregiver_name}</bdi>
        </Typography>
        <Typography color="textSecondary">
          <SpokenDate instant={appointment.start_date} timeZone={timeZone}>
            <Ltr>{formatDate(appointment.start_date, timeZone)}</Ltr>{' '}
            <Ltr>{formatTime(appointment.start_date, timeZone)}</Ltr>
          </SpokenDate>
        </Typography>
      </CardContent>
    </Card>
  );
}
