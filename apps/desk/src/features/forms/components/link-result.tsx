import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { CreatedFormRequest } from '@marpe/shared';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPhone } from '../../../lib/format';
import { useClinicDates } from './use-clinic-dates';

/**
 * A new link, shown this once: whether it went to the patient's phone (and by which channel),
 * a copy button (or, where the browser refuses, the link selected to copy by hand), and for a
 * resend that the link sent before no longer works.
 */
export function LinkResult({
  link,
  phone,
  replaced,
  titleId,
  onClose,
}: {
  link: CreatedFormRequest;
  /** Where it was sent (05XXXXXXXX); ignored when it was not. */
  phone: string | null;
  /** A resend: the previous link has ended. */
  replaced: boolean;
  titleId: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('forms');
  const { longDayAndTime } = useClinicDates();
  const field = useRef<HTMLInputElement>(null);
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(link.url);
      setCopy('copied');
    } catch {
      // No clipboard here (an http address, a refused permission): the link is selected instead.
      field.current?.focus();
      field.current?.select();
      setCopy('failed');
    }
  }

  return (
    <>
      <DialogTitle id={titleId}>{t('created.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Alert severity={link.sent_by ? 'success' : 'info'}>
            {link.sent_by
              ? t('created.sent', {
                  channel: t(`channel.${link.sent_by}`),
                  phone: formatPhone(phone ?? ''),
                })
              : t('created.notSent')}
          </Alert>
          {replaced ? <Alert severity="warning">{t('created.previousEnded')}</Alert> : null}
          <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'flex-start' }}>
            <TextField
              inputRef={field}
              label={t('created.link')}
              value={link.url}
              onFocus={(e) => e.target.select()}
              slotProps={{ htmlInput: { readOnly: true, dir: 'ltr' } }}
              helperText={t('created.once')}
              fullWidth
            />
            <Button
              variant="contained"
              startIcon={<ContentCopyIcon />}
              onClick={() => void copyLink()}
              sx={{ flexShrink: 0, mt: 1 }}
            >
              {t('created.copy')}
            </Button>
          </Stack>
          <Typography role="status" sx={{ minHeight: '1.5em' }}>
            {copy === 'copied'
              ? t('created.copied')
              : copy === 'failed'
                ? t('created.copyFailed')
                : ''}
          </Typography>
          <Typography color="text.secondary">
            {t('created.until', { date: longDayAndTime(link.expires_at) })}
          </Typography>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {t('created.done')}
        </Button>
      </DialogActions>
    </>
  );
}
