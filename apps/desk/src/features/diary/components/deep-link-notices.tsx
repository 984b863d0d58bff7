import Alert from '@mui/material/Alert';
import type { IntegrationPatient } from '@marpe/shared';
import { useTranslation } from 'react-i18next';

/**
 * What the diary opened from a patient's page says: whom it books for (or that no such patient
 * is), and that the appointment it was to open is not there. Each is dismissed from the address.
 */
export function DeepLinkNotices({
  bookingFor,
  patientNotFound,
  forPatient,
  linkMissing,
  onDismiss,
}: {
  bookingFor: string | null;
  patientNotFound: boolean;
  forPatient: IntegrationPatient | null;
  linkMissing: boolean;
  onDismiss: (param: 'patient' | 'appointment') => void;
}) {
  const { t } = useTranslation('diary');
  return (
    <>
      {bookingFor ? (
        <Alert
          severity={patientNotFound ? 'warning' : 'info'}
          sx={{ mb: 2 }}
          onClose={() => onDismiss('patient')}
          slotProps={{ closeButton: { title: t('deepLink.dismiss') } }}
        >
          {patientNotFound
            ? t('deepLink.patientNotFound', { idNumber: bookingFor })
            : forPatient
              ? t('deepLink.bookingFor', {
                  name: `${forPatient.first_name} ${forPatient.last_name}`,
                })
              : t('deepLink.loadingPatient')}
        </Alert>
      ) : null}
      {linkMissing ? (
        <Alert severity="info" sx={{ mb: 2 }} onClose={() => onDismiss('appointment')}>
          {t('deepLink.notFound')}
        </Alert>
      ) : null}
    </>
  );
}
