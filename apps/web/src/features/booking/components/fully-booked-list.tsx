import type { Caregiver } from '@marpe/shared';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

export interface FullyBookedListProps {
  /** Caregivers with no free time in their booking horizon (for the chosen type, if any). */
  caregivers: readonly Caregiver[];
  onNotify: (caregiver: Caregiver) => void;
}

/**
 * Under step 1: the caregivers step 1 leaves out for having no free time (SPEC § 2 lists only
 * those with a first available slot), each with "notify me": a fully booked caregiver is what a
 * waitlist is for.
 */
export function FullyBookedList({ caregivers, onNotify }: FullyBookedListProps) {
  const { t } = useTranslation();
  const headingId = useId();
  if (caregivers.length === 0) return null;
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 2 }}>
      <Typography id={headingId} component="h3" variant="subtitle2" color="textSecondary">
        {t('waitlist.fullyBooked')}
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
            <Button
              size="small"
              variant="outlined"
              aria-label={t('waitlist.notifyFor', { caregiver: caregiver.name })}
              onClick={() => onNotify(caregiver)}
            >
              {t('waitlist.join')}
            </Button>
          </Box>
        ))}
      </Box>
    </Box>
  );
}
