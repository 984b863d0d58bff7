import type { AppointmentType, Caregiver, Slot } from '@marpe/shared';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';
import { formatClinicTime } from '../../../lib/clinic-time';
import { formatLocalDate, formatTime } from '../format';
import { SpokenDate } from './spoken-date';

export interface SummaryListProps {
  caregiver: Caregiver | null;
  appointmentType: AppointmentType | null;
  slot: Slot | null;
  /** The chosen date (`YYYY-MM-DD`), shown before a time is chosen too. */
  date?: string | null;
  timeZone: string;
}

/** The appointment's details as a description list (docs/product/booking.md#confirming formats). */
export function SummaryList(props: SummaryListProps) {
  const { caregiver, appointmentType, slot, date = null, timeZone } = props;
  const { t } = useTranslation();
  const notChosen = t('booking.notChosen');
  // The slot's day on the clinic's clock, or the date chosen before its time.
  const day = slot ? formatClinicTime(slot.start, timeZone, 'YYYY-MM-DD') : date;
  const rows: [string, ReactNode][] = [
    [t('booking.caregiver'), caregiver?.name ?? notChosen],
    [t('booking.type'), appointmentType?.name ?? notChosen],
    [
      t('booking.date'),
      day ? <SpokenDate date={day}>{formatLocalDate(day)}</SpokenDate> : notChosen,
    ],
    [t('booking.time'), slot ? formatTime(slot.start, timeZone) : notChosen],
    [
      t('booking.duration'),
      appointmentType
        ? t('booking.minutes', { count: appointmentType.duration_minutes })
        : notChosen,
    ],
  ];
  return (
    <Box
      component="dl"
      sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 1, m: 0 }}
    >
      {rows.map(([term, value]) => (
        <Box key={term} sx={{ display: 'contents' }}>
          <Typography component="dt" color="textSecondary">
            {term}
          </Typography>
          <Typography component="dd" sx={{ m: 0, fontWeight: 500 }}>
            <bdi>{value}</bdi>
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
