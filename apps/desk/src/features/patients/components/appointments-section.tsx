import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useClinicZoneQuery } from '../../../lib/clinic-dates';
import { SECTION_PAGE_SIZE, usePatientAppointments } from '../api/patients';
import { clinicDate, formatDateTime } from '../patient-dates';
import { ListSection, stateOf } from './list-section';

/** The patient's upcoming and past appointments, each opening in the diary. */
export function AppointmentsSection({ idNumber }: { idNumber: string }) {
  const { t, i18n } = useTranslation('patients');
  const zone = useClinicZoneQuery();
  const [now] = useState(() => Date.now());
  const today = zone.data ? clinicDate(now, zone.data) : null;
  const [upcomingLimit, setUpcomingLimit] = useState(SECTION_PAGE_SIZE);
  const [pastLimit, setPastLimit] = useState(SECTION_PAGE_SIZE);
  const upcoming = usePatientAppointments(idNumber, 'upcoming', today, upcomingLimit);
  const past = usePatientAppointments(idNumber, 'past', today, pastLimit);
  const language = i18n.language;
  const head = [
    t('appointments.when'),
    t('appointments.caregiver'),
    t('appointments.type'),
    t('appointments.status'),
    '',
  ];
  const row = (a: NonNullable<typeof upcoming.data>['rows'][number]) => {
    const when = formatDateTime(a.start_date, zone.data ?? 'Asia/Jerusalem', language);
    const date = clinicDate(Date.parse(a.start_date), zone.data ?? 'Asia/Jerusalem');
    return (
      <TableRow key={a.id}>
        <TableCell component="th" scope="row">
          {when}
        </TableCell>
        <TableCell>{a.caregiver.name}</TableCell>
        <TableCell>{a.appointment_type.name}</TableCell>
        <TableCell>
          <Chip
            size="small"
            variant="outlined"
            color={a.status === 'booked' ? 'success' : 'default'}
            label={t(`appointments.${a.status}`)}
          />
        </TableCell>
        <TableCell sx={{ textAlign: 'end' }}>
          <Link
            component={RouterLink}
            to={`/diary?date=${date}&appointment=${a.id}`}
            aria-label={t('appointments.openLabel', { when })}
          >
            {t('appointments.open')}
          </Link>
        </TableCell>
      </TableRow>
    );
  };
  return (
    <>
      <ListSection
        title={t('appointments.upcoming')}
        state={zone.isError ? { ...stateOf(upcoming), error: zone.error } : stateOf(upcoming)}
        empty={t('appointments.noneUpcoming')}
        head={head}
        row={row}
        onMore={() => setUpcomingLimit((n) => n + SECTION_PAGE_SIZE * 2)}
      />
      <ListSection
        title={t('appointments.past')}
        state={zone.isError ? { ...stateOf(past), error: zone.error } : stateOf(past)}
        empty={t('appointments.nonePast')}
        head={head}
        row={row}
        onMore={() => setPastLimit((n) => n + SECTION_PAGE_SIZE * 2)}
      />
    </>
  );
}
