import type { Caregiver } from '@marpe/shared';
import EventAvailableOutlinedIcon from '../../../lib/icons/event-available-outlined';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatSlotStart } from '../format';
import { spokenDateTime } from '../../../lib/clinic-time';
import { nameInitial } from '../../../lib/name-initial';
import { SaidAs } from '../../../lib/said-as';
import { ClinicText, Ltr } from '../../../lib/text-runs';

function CaregiverItem({
  caregiver,
  timeZone,
  last,
}: {
  caregiver: Caregiver;
  timeZone: string;
  last: boolean;
}) {
  const { t, i18n } = useTranslation();
  const slot = caregiver.first_available_slot;
  return (
    <ListItem alignItems="flex-start" divider={!last} sx={{ px: 2, py: 1.5 }}>
      <ListItemAvatar sx={{ minWidth: 0, marginInlineEnd: 2 }}>
        {/* The name follows, so the picture (or its initial, as on the booking page) is decorative. */}
        <Avatar src={caregiver.image ?? undefined} alt="" sx={{ width: 48, height: 48 }}>
          <span aria-hidden="true">{nameInitial(caregiver.name)}</span>
        </Avatar>
      </ListItemAvatar>
      <Box sx={{ minWidth: 0 }}>
        <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 500, lineHeight: 1.4 }}>
          <ClinicText>{caregiver.name}</ClinicText>
        </Typography>
        <Typography variant="body2" color="textSecondary">
          {t('clinic.licenseNumber')}:{' '}
          <Box component="bdi" dir="ltr" sx={{ whiteSpace: 'nowrap' }}>
            {caregiver.license_number}
          </Box>
        </Typography>
        {slot ? (
          <Typography
            variant="body2"
            sx={{ mt: 0.5, display: 'flex', alignItems: 'center', gap: 0.75 }}
          >
            <EventAvailableOutlinedIcon fontSize="small" sx={{ color: 'primary.dark' }} />
            <span>
              {t('clinic.nextSlot')}:{' '}
              <SaidAs said={spokenDateTime(slot.start, timeZone, i18n.language)}>
                <Ltr>{formatSlotStart(slot.start, timeZone)}</Ltr>
              </SaidAs>
            </span>
          </Typography>
        ) : (
          <Typography variant="body2" color="textSecondary" sx={{ mt: 0.5 }}>
            {t('clinic.noSlots')}
          </Typography>
        )}
      </Box>
    </ListItem>
  );
}

export function CaregiverList({
  caregivers,
  timeZone,
  labelledBy,
}: {
  caregivers: Caregiver[];
  timeZone: string;
  labelledBy: string;
}) {
  return (
    <List
      aria-labelledby={labelledBy}
      disablePadding
      sx={{ border: 1, borderColor: 'divider', borderRadius: 2, bgcolor: 'background.paper' }}
    >
      {caregivers.map((caregiver, index) => (
        <CaregiverItem
          key={caregiver.id}
          caregiver={caregiver}
          timeZone={timeZone}
          last={index === caregivers.length - 1}
        />
      ))}
    </List>
  );
}
