import type { Caregiver } from '@marpe/shared';
import CloseIcon from '../../../lib/icons/close';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { nameInitial } from '../../../lib/name-initial';

export interface CaregiverStepProps {
  caregivers: Caregiver[];
  selected: Caregiver | null;
  onSelect: (caregiver: Caregiver | null) => void;
}

/**
 * Step 1 (docs/product/booking.md#the-page): one card per caregiver; the others are disabled while
 * one is chosen.
 */
export function CaregiverStep({ caregivers, selected, onSelect }: CaregiverStepProps) {
  const { t } = useTranslation();
  if (caregivers.length === 0) {
    return <Typography color="textSecondary">{t('booking.noCaregivers')}</Typography>;
  }
  return (
    <Box
      component="ul"
      sx={{
        listStyle: 'none',
        p: 0,
        m: 0,
        display: 'grid',
        gap: 1.5,
        // Two columns only where a card still fits its name, licence and close button on their
        // lines: never a half-width card that wraps the licence number.
        gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 300px), 1fr))',
      }}
    >
      {caregivers.map((caregiver) => {
        const isSelected = selected?.id === caregiver.id;
        const isDisabled = selected !== null && !isSelected;
        return (
          <li key={caregiver.id}>
            <Card
              variant="outlined"
              sx={{
                display: 'flex',
                alignItems: 'center',
                borderColor: isSelected ? 'primary.main' : 'divider',
                borderWidth: isSelected ? 2 : 1,
                // Disabled while another is chosen: it must look it, not only be it.
                ...(isDisabled && {
                  bgcolor: 'action.disabledBackground',
                  borderStyle: 'dashed',
                  color: 'text.disabled',
                  '& .MuiTypography-root': { color: 'text.disabled' },
                  '& .MuiAvatar-root': { filter: 'grayscale(1)', opacity: 0.5 },
                }),
              }}
            >
              <CardActionArea
                aria-pressed={isSelected}
                disabled={isDisabled}
                onClick={() => {
                  if (!isSelected) onSelect(caregiver);
                }}
                sx={{ flex: 1, display: 'flex', justifyContent: 'flex-start', gap: 1.5, p: 1.5 }}
              >
                <Avatar src={caregiver.image ?? undefined} alt="">
                  <span aria-hidden="true">{nameInitial(caregiver.name)}</span>
                </Avatar>
                <Box>
                  <Typography sx={{ fontWeight: 500 }}>
                    <bdi>{caregiver.name}</bdi>
                  </Typography>
                  <Typography variant="body2" color="textSecondary">
                    {t('clinic.licenseNumber')}{' '}
                    {/* Isolated left to right and unbroken: never "1-" on one line, "23456" below. */}
                    <Box component="bdi" dir="ltr" sx={{ whiteSpace: 'nowrap' }}>
                      {caregiver.license_number}
                    </Box>
                  </Typography>
                </Box>
              </CardActionArea>
              {isSelected && (
                <IconButton
                  aria-label={t('booking.clearCaregiver', { name: caregiver.name })}
                  onClick={() => onSelect(null)}
                  sx={{ mx: 1 }}
                >
                  <CloseIcon />
                </IconButton>
              )}
            </Card>
          </li>
        );
      })}
    </Box>
  );
}
