import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { WaitlistEntry } from '../api/get-waitlist';

interface LeaveWaitlistDialogProps {
  open: boolean;
  /** Kept while the dialog fades out, so its text does not vanish first. */
  entry: WaitlistEntry | null;
  pending: boolean;
  onStay: () => void;
  onConfirm: (entry: WaitlistEntry) => void;
  onExited: () => void;
}

/** Confirm before leaving the waitlist (stay / leave). */
export function LeaveWaitlistDialog({
  open,
  entry,
  pending,
  onStay,
  onConfirm,
  onExited,
}: LeaveWaitlistDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog
      open={open}
      onClose={() => {
        if (!pending) onStay();
      }}
      aria-labelledby={titleId}
      aria-describedby={textId}
      maxWidth="xs"
      fullWidth
      slotProps={{ transition: { onExited } }}
    >
      <DialogTitle id={titleId}>{t('waitlist.leaveTitle')}</DialogTitle>
      <DialogContent>
        {entry && (
          <DialogContentText id={textId}>
            {t('waitlist.leaveText', { caregiver: entry.caregiver_name, type: entry.type_name })}
          </DialogContentText>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onStay} disabled={pending}>
          {t('waitlist.stay')}
        </Button>
        <Button
          variant="contained"
          color="error"
          loading={pending}
          onClick={() => entry && onConfirm(entry)}
        >
          {t('waitlist.confirmLeave')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
