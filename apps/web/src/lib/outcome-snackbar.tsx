import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { snackbarDefaultMs } from './snackbar';

/**
 * How a patient's act went (cancelled, left the waitlist, or could not), at the foot of the page
 * for the default time: green when done, red when not. A click elsewhere on the page does not cut
 * it short.
 */
export function OutcomeSnackbar({
  open,
  message,
  failed,
  onClose,
}: {
  open: boolean;
  message: string;
  failed: boolean;
  onClose: () => void;
}) {
  return (
    <Snackbar
      open={open}
      autoHideDuration={snackbarDefaultMs}
      onClose={(_event, reason) => {
        if (reason !== 'clickaway') onClose();
      }}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      <Alert severity={failed ? 'error' : 'success'} variant="filled" sx={{ width: '100%' }}>
        {message}
      </Alert>
    </Snackbar>
  );
}
