import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';

/**
 * Asks before leaving a form with changes not saved (a link of the desk, back, closing the tab):
 * a caregiver's week takes a while to type.
 */
export function LeaveGuard({ when }: { when: () => boolean }) {
  const { t } = useTranslation('setup-team');
  const id = useId();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      currentLocation.pathname !== nextLocation.pathname && when(),
  );
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (when()) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [when]);
  const stay = () => blocker.reset?.();
  return (
    <Dialog
      open={blocker.state === 'blocked'}
      onClose={stay}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
    >
      <DialogTitle id={`${id}-title`}>{t('leave.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText id={`${id}-body`}>{t('leave.body')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={stay} autoFocus>
          {t('leave.stay')}
        </Button>
        <Button variant="contained" color="error" onClick={() => blocker.proceed?.()}>
          {t('leave.leave')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
