import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { useTranslation } from 'react-i18next';
import { usePatientWaitlist } from '../api/patients';
import { formatDate } from '../patient-dates';
import { ListSection, stateOf } from './list-section';

/** The patient's places on the waitlist. */
export function WaitlistSection({ idNumber }: { idNumber: string }) {
  const { t, i18n } = useTranslation('patients');
  const entries = usePatientWaitlist(idNumber);
  const language = i18n.language;
  return (
    <ListSection
      title={t('waitlist.title')}
      state={stateOf(entries)}
      empty={t('waitlist.none')}
      head={[
        t('waitlist.caregiver'),
        t('waitlist.type'),
        t('waitlist.dates'),
        t('waitlist.partOfDay'),
        t('waitlist.joined'),
      ]}
      row={(entry) => (
        <TableRow key={entry.id}>
          <TableCell component="th" scope="row">
            {entry.caregiver.name}
          </TableCell>
          <TableCell>{entry.appointment_type.name}</TableCell>
          <TableCell>
            {formatDate(entry.from_date, language)}–{formatDate(entry.to_date, language)}
          </TableCell>
          <TableCell>{t(`waitlist.parts.${entry.part_of_day}`)}</TableCell>
          <TableCell>{formatDate(entry.joined_at, language)}</TableCell>
        </TableRow>
      )}
    />
  );
}
