import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import type { IntegrationWaitlistEntry } from '@marpe/shared';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/field-errors';
import { formatPhone } from '../../../lib/format';
import { PageLoading } from '../../../lib/page-loading';
import { formatDay, formatWhen } from '../clinic-time';

const shortDate = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}`;

/** Who waits for the day shown (and the caregiver chosen): to call when a time frees up. */
export function WaitlistDialog({
  open,
  date,
  zone,
  caregiverName,
  entries,
  error,
  onClose,
}: {
  open: boolean;
  date: string;
  zone: string;
  caregiverName: string | null;
  entries: IntegrationWaitlistEntry[] | undefined;
  error: unknown;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('diary');
  const id = useId();
  const language = i18n.language;
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={`${id}-title`} fullWidth maxWidth="sm">
      <DialogTitle id={`${id}-title`}>
        {t('waitlist.title', { date: formatDay(date, language) })}
        {caregiverName ? ` ${t('waitlist.caregiverOnly', { name: caregiverName })}` : ''}
      </DialogTitle>
      <DialogContent>
        {error ? <Alert severity="error">{errorText(t, error)}</Alert> : null}
        {!entries && !error ? <PageLoading /> : null}
        {entries && entries.length === 0 ? <p>{t('waitlist.none')}</p> : null}
        {entries && entries.length > 0 ? (
          <List aria-label={t('waitlist.list')}>
            {entries.map((entry) => (
              <ListItem key={entry.id} disableGutters divider>
                <ListItemText
                  primary={
                    <>
                      {entry.patient.first_name} {entry.patient.last_name} ·{' '}
                      <bdi>{formatPhone(entry.patient.phone)}</bdi>
                    </>
                  }
                  secondary={[
                    `${entry.appointment_type.name}, ${entry.caregiver.name}`,
                    `${t('waitlist.dates', {
                      from: shortDate(entry.from_date),
                      to: shortDate(entry.to_date),
                    })} · ${t(`waitlist.partOfDay.${entry.part_of_day}`)}`,
                    t('waitlist.since', { date: formatWhen(entry.joined_at, zone, language) }),
                  ].join(' · ')}
                />
              </ListItem>
            ))}
          </List>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {t('close', { ns: 'common' })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
