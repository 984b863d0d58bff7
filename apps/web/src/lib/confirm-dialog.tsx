import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId, type ReactNode } from 'react';

/** What the page opening a confirm dialog controls; the dialogs built on it pass these on. */
export interface ConfirmDialogControls {
  open: boolean;
  /** While the action runs: returning is disabled and the confirm button shows progress. */
  pending: boolean;
  onReturn: () => void;
  /** After the closing transition, when focus has gone back to where it was. */
  onExited: () => void;
}

interface ConfirmDialogProps extends ConfirmDialogControls {
  title: string;
  /** Null once what it asks about is gone, after the dialog has faded out. */
  text: ReactNode | null;
  returnLabel: string;
  confirmLabel: string;
  onConfirm: () => void;
}

/** A question before a destructive action: return (the safe choice) or confirm. */
export function ConfirmDialog({
  open,
  title,
  text,
  returnLabel,
  confirmLabel,
  pending,
  onReturn,
  onConfirm,
  onExited,
}: ConfirmDialogProps) {
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog
      open={open}
      onClose={() => {
        if (!pending) onReturn();
      }}
      aria-labelledby={titleId}
      aria-describedby={textId}
      maxWidth="xs"
      fullWidth
      slotProps={{ transition: { onExited } }}
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        {text !== null && <DialogContentText id={textId}>{text}</DialogContentText>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onReturn} disabled={pending}>
          {returnLabel}
        </Button>
        <Button variant="contained" color="error" loading={pending} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
