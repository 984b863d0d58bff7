import type { Caregiver, Clinic } from '@marpe/shared';
import EventNoteOutlinedIcon from '../../../lib/icons/event-note-outlined';
import EventOutlinedIcon from '../../../lib/icons/event-outlined';
import PhoneOutlinedIcon from '../../../lib/icons/phone-outlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { telHref } from '../../../lib/clinic/tel-href';
import { useCheckedSession } from '../../../lib/patient-session/use-checked-session';

export function BookingActions({
  clinic,
  caregivers,
}: {
  clinic: Clinic;
  caregivers: Caregiver[];
}) {
  const { t } = useTranslation();
  const canBook = caregivers.some((caregiver) => caregiver.first_available_slot !== null);
  // A logged-in patient finds their appointments from here too (changing or cancelling one).
  const { patient } = useCheckedSession();
  return (
    <Stack spacing={1.5}>
      {canBook ? (
        <Button
          component={RouterLink}
          // The login page goes on to booking, not to the patient's appointments.
          to={`/login/${clinic.id}?next=booking`}
          variant="contained"
          size="large"
          fullWidth
          startIcon={<EventOutlinedIcon />}
          sx={{ minHeight: 52, fontSize: '1.0625rem' }}
        >
          {t('clinic.book')}
        </Button>
      ) : (
        // A standing notice, not an announcement: no live region.
        <Alert severity="info" role="note">
          {t('clinic.noAppointments')}
        </Alert>
      )}
      {patient && (
        <Button
          component={RouterLink}
          to={`/appointments/${clinic.id}`}
          variant="outlined"
          fullWidth
          startIcon={<EventNoteOutlinedIcon />}
        >
          {t('clinic.myAppointments')}
        </Button>
      )}
      <Button
        href={telHref(clinic.phone)}
        variant="outlined"
        fullWidth
        startIcon={<PhoneOutlinedIcon />}
      >
        {t('clinic.call')}
      </Button>
    </Stack>
  );
}
