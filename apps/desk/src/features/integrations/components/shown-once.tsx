import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

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
  const field = useRef<HTMLInputElement>(null);
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');

  async function copyValue() {
    try {
      await navigator.clipboard.writeText(secret.value);
      setCopy('copied');
    } catch {
      // No clipboard here (an http address, a refused permission): the value is selected instead.
      field.current?.focus();
      field.current?.select();
      setCopy('failed');
    }
  }

  return (
    <>
      <DialogTitle id={titleId}>{secret.title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Alert severity="warning" id={`${id}-once`}>
            {t('once.warning')}
          </Alert>
          <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'flex-start' }}>
            <TextField
              inputRef={field}
              label={secret.label}
              value={secret.value}
              onFocus={(e) => e.target.select()}
              slotProps={{
                htmlInput: {
                  readOnly: true,
                  dir: 'ltr',
                  spellCheck: false,
                  'aria-describedby': `${id}-once`,
                },
              }}
            />
            <Button
              variant="contained"
              startIcon={<ContentCopyIcon />}
              onClick={() => void copyValue()}
              sx={{ flexShrink: 0, mt: 1 }}
            >
              {t('once.copy')}
            </Button>
          </Stack>
          <Typography role="status" sx={{ minHeight: '1.5em' }}>
            {copy === 'copied' ? t('once.copied') : copy === 'failed' ? t('once.copyFailed') : ''}
          </Typography>
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
