import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPhone } from '../../../lib/format';
import { formatWhen, localParts } from '../clinic-time';
import { patientName, type DiaryEvent } from '../diary-events';

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: 'max-content 1fr',
        columnGap: 2,
        rowGap: 1,
        m: 0,
        '& dt': { fontWeight: 500, color: 'text.secondary' },
        '& dd': { m: 0 },
      }}
    >
      {rows.map(([term, value]) => (
        <Box key={term} sx={{ display: 'contents' }}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </Box>
      ))}
    </Box>
  );
}

/**
 * What was clicked (or chosen with Enter) in the grid: an appointment with its patient and
 * actions, or a busy time with where it comes from.
 */
export function EventDialog({
  event,
  zone,
  now,
  onClose,
  onMove,
  onCancel,
}: {
  event: DiaryEvent | null;
  zone: string;
  /** When it was opened: an appointment started by then cannot be moved. */
  now: number;
  onClose: () => void;
  onMove: () => void;
  onCancel: () => void;
}) {
  const { t, i18n } = useTranslation('diary');
  const id = useId();
  const language = i18n.language;
  const appointment = event?.kind === 'appointment' ? event.appointment : null;
  const past = appointment ? Date.parse(appointment.start_date) <= now : false;
  return (
    <Dialog open={event !== null} onClose={onClose} aria-labelledby={`${id}-title`} fullWidth>
      <DialogTitle id={`${id}-title`}>
        {event?.kind === 'busy' ? t('busy.title') : t('details.title')}
      </DialogTitle>
      <DialogContent>
        {event?.kind === 'busy' ? (
          <Facts
            rows={[
              [t('details.caregiver'), event.caregiverName],
              [
                t('details.when'),
                `${formatWhen(event.busy.start, zone, language)}–${localParts(event.busy.end, zone).time}`,
              ],
              [t('busy.source'), t(`busy.source_${event.busy.source}`)],
              [t('busy.label'), event.busy.label ?? t('busy.noLabel')],
            ]}
          />
        ) : null}
        {appointment ? (
          <>
            <Typography variant="h3" component="p" sx={{ mb: 2 }}>
              {patientName(appointment)}
            </Typography>
            <Facts
              rows={[
                [
                  t('details.when'),
                  `${formatWhen(appointment.start_date, zone, language)}–${localParts(appointment.end_date, zone).time}`,
                ],
                [t('details.type'), appointment.appointment_type.name],
                [t('details.caregiver'), appointment.caregiver.name],
                [
                  t('details.phone'),
                  <bdi key="phone">{formatPhone(appointment.patient.phone)}</bdi>,
                ],
                [t('details.idNumber'), <bdi key="id">{appointment.patient.id_number}</bdi>],
                [t('details.source'), t(`details.source_${appointment.source}`)],
                [t('details.createdAt'), formatWhen(appointment.created_at, zone, language)],
              ]}
            />
            {past ? (
              <Alert severity="info" sx={{ mt: 2 }}>
                {t('details.past')}
              </Alert>
            ) : null}
          </>
        ) : null}
      </DialogContent>
      <DialogActions>
        {appointment ? (
          <>
            <Button color="error" onClick={onCancel}>
              {t('details.cancel')}
            </Button>
            <Button onClick={onMove} disabled={past}>
              {t('details.move')}
            </Button>
          </>
        ) : null}
        <Button variant="contained" onClick={onClose}>
          {t('close', { ns: 'common' })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
