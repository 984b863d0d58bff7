import type { Caregiver } from '@marpe/shared';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CheckIcon from '../../../lib/icons/check';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface FullyBookedListProps {
  /** Caregivers with no free time in their booking horizon (for the chosen type, if any). */
  caregivers: readonly Caregiver[];
  onNotify: (caregiver: Caregiver) => void;
  /** Caregivers the patient joined the waitlist of here: no second "notify me". */
  waiting: ReadonlySet<number>;
  /** The link to my appointments, where an entry can be left. */
  myAppointments: ReactNode;
}

/**
 * Under step 1: the caregivers step 1 leaves out for having no free time
 * (docs/product/booking.md#the-page lists only those with a first available slot), each with
 * "notify me": a fully booked caregiver is what a waitlist is for.
 */
export function FullyBookedList(props: FullyBookedListProps) {
  const { caregivers, onNotify, waiting, myAppointments } = props;
  const { t } = useTranslation();
  const headingId = useId();
  if (caregivers.length === 0) return null;
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 2 }}>
      <Typography id={headingId} component="h3" variant="subtitle2" color="textSecondary">
        {t('waitlist.fullyBooked', {
          count: caregivers.length,
          caregiver: caregivers[0]?.name ?? '',
        })}
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mt: 1 }}>
        {caregivers.map((caregiver) => (
          <Box
            component="li"
            key={caregiver.id}
            sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', py: 0.5 }}
          >
            <Typography sx={{ flex: 1 }}>
              <bdi>{caregiver.name}</bdi>
            </Typography>
            {waiting.has(caregiver.id) ? (
              <Typography
                variant="body2"
                sx={{ display: 'flex', alignItems: 'center', gap: 0.5, color: 'success.dark' }}
              >
                <CheckIcon fontSize="small" aria-hidden="true" />
                {t('waitlist.onListShort')}
                <span aria-hidden="true">·</span>
                {myAppointments}
              </Typography>
            ) : (
              <Button
                size="small"
                variant="outlined"
                aria-label={t('waitlist.notifyFor', { caregiver: caregiver.name })}
                onClick={() => onNotify(caregiver)}
              >
                {t('waitlist.join')}
              </Button>
            )}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
