import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { useTranslation } from 'react-i18next';
import { snackbarDefaultMs } from '../../../lib/snackbar';

/** "Successfully Authenticated" (docs/product/login.md#steps) on the page the login went on to. */
export function VerifiedSnackbar({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Snackbar
      open={open}
      autoHideDuration={snackbarDefaultMs}
      onClose={(_event, reason) => {
        if (reason !== 'clickaway') onClose();
      }}
    >
      {/* Polite: the new page's heading takes the focus, and is read first. */}
      <Alert severity="success" variant="filled" role="status" sx={{ width: '100%' }}>
        {t('patientAuth.authenticated')}
      </Alert>
    </Snackbar>
  );
}
