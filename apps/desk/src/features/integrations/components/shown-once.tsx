import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyField } from '../../../lib/copy-field';

export interface Secret {
  /** The dialog's title: what was made ("The key is ready"). */
  title: string;
  /** The field's label: what the value is ("API key"). */
  label: string;
  value: string;
  /** What to do with it, under the warning. */
  body?: ReactNode;
}

/**
 * The contents of a dialog showing a secret (a key, a signing secret, a feed URL) the server
 * gives this once: the value, a copy button (or, where the browser refuses, the value selected to
 * copy by hand) and a plain warning that it will not be shown again.
 */
export function ShownOnce({
  secret,
  titleId,
  onClose,
}: {
  secret: Secret;
  titleId: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('integrations');
  const id = useId();

  return (
    <>
      <DialogTitle id={titleId}>{secret.title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Alert severity="warning" id={`${id}-once`}>
            {t('once.warning')}
          </Alert>
          <CopyField
            label={secret.label}
            value={secret.value}
            describedBy={`${id}-once`}
            texts={{ copy: t('once.copy'), copied: t('once.copied'), failed: t('once.copyFailed') }}
          />
          {secret.body ? <Typography>{secret.body}</Typography> : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {t('once.done')}
        </Button>
      </DialogActions>
    </>
  );
}

/** A dialog with nothing but a secret shown once (after a rotation, a feed made). */
export function SecretDialog({ secret, onClose }: { secret: Secret | null; onClose: () => void }) {
  const id = useId();
  // Kept while the dialog closes, so its text does not vanish during the transition.
  const [shown, setShown] = useState<Secret | null>(secret);
  if (secret !== null && secret !== shown) setShown(secret);
  return (
    <Dialog
      open={secret !== null}
      onClose={onClose}
      aria-labelledby={`${id}-title`}
      maxWidth="sm"
      fullWidth
      slotProps={{ transition: { onExited: () => setShown(null) } }}
    >
      {shown ? <ShownOnce secret={shown} titleId={`${id}-title`} onClose={onClose} /> : null}
    </Dialog>
  );
}
