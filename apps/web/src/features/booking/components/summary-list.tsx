import type { AppointmentType, Caregiver, Slot } from '@marpe/shared';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDate, formatTime } from '../format';

export interface SummaryListProps {
  caregiver: Caregiver | null;
  appointmentType: AppointmentType | null;
  slot: Slot | null;
  timeZone: string;
}

/** The appointment's details as a description list (SPEC § 9 formats). */
export function SummaryList({ caregiver, appointmentType, slot, timeZone }: SummaryListProps) {
  const { t } = useTranslation();
  const notChosen = t('booking.notChosen');
  const rows: [string, string][] = [
    [t('booking.caregiver'), caregiver?.name ?? notChosen],
    [t('booking.type'), appointmentType?.name ?? notChosen],
    [t('booking.date'), slot ? formatDate(slot.start, timeZone) : notChosen],
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
