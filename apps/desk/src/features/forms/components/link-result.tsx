import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { CreatedFormRequest } from '@marpe/shared';
import { useTranslation } from 'react-i18next';
import { formatPhone } from '../../../lib/format';
import { useClinicDates } from '../../../lib/clinic-dates';
import { CopyField } from '../../../lib/copy-field';

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
          <CopyField
            label={t('created.link')}
            value={link.url}
            helperText={t('created.once')}
            texts={{
              copy: t('created.copy'),
              copied: t('created.copied'),
              failed: t('created.copyFailed'),
            }}
            fullWidth
          />
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
