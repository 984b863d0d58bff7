import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { useTranslation } from 'react-i18next';

/**
 * Shown for 3 s when the booking flow set the flag; closing clears it for good
 * (docs/product/clinic-page.md#booking-confirmed).
 */
export function BookingConfirmedSnackbar({ open, clear }: { open: boolean; clear: () => void }) {
  const { t } = useTranslation();
  return (
    <Snackbar
      open={open}
      autoHideDuration={3000}
      onClose={(_event, reason) => {
        // A click elsewhere on the page must not cut the message short.
        if (reason !== 'clickaway') clear();
      }}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      <Alert severity="success" variant="filled" sx={{ width: '100%' }}>
        {t('clinic.bookingConfirmed')}
      </Alert>
    </Snackbar>
  );
}
