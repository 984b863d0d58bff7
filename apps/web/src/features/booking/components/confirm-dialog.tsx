import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { SummaryList, type SummaryListProps } from './summary-list';

export interface ConfirmDialogProps extends SummaryListProps {
  open: boolean;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

/** SPEC § 2: the summary with cancel and confirm, at most 400 px wide. */
export function ConfirmDialog({ open, busy, onCancel, onConfirm, ...summary }: ConfirmDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onCancel}
      aria-labelledby={titleId}
      fullWidth
      slotProps={{ paper: { sx: { maxWidth: 400 } } }}
    >
      <DialogTitle id={titleId}>{t('booking.dialogTitle')}</DialogTitle>
      <DialogContent>
        <SummaryList {...summary} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          {t('booking.cancel')}
        </Button>
        <Button variant="contained" onClick={onConfirm} loading={busy}>
          {t('booking.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
