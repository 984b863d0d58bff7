import Link from '@mui/material/Link';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

/** The link to "my appointments", where an appointment is changed or cancelled. */
export function MyAppointmentsLink({ clinicId }: { clinicId: number }) {
  const { t } = useTranslation();
  return (
    <Link component={RouterLink} to={`/appointments/${clinicId}`} color="inherit">
      {t('booking.myAppointments')}
    </Link>
  );
}
