import OpenInNewIcon from '../../../lib/icons/open-in-new';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { CalendarConnectionLink } from '@marpe/shared';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyField } from '../../../lib/copy-field';
import { clinicStamp } from '../calendar-connection';

/**
 * The connection link just made, to send to the caregiver (copy) or to open at the desk for a
 * caregiver standing there (a new tab, so the desk stays as it was), and until when it works.
 */
export function CalendarLinkDialog({
  link,
  name,
  timeZone,
  onClose,
}: {
  link: CalendarConnectionLink | null;
  name: string;
  timeZone: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('setup-team');
  const id = useId();
  // Kept while the dialog fades out, so its text does not vanish during the transition.
  const [shown, setShown] = useState<CalendarConnectionLink | null>(link);
  if (link !== null && link !== shown) setShown(link);
  return (
    <Dialog
      open={link !== null}
      onClose={onClose}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      maxWidth="sm"
      fullWidth
      slotProps={{ transition: { onExited: () => setShown(null) } }}
    >
      <DialogTitle id={`${id}-title`}>{t('calendar.linkDialog.title', { name })}</DialogTitle>
      {shown ? (
        <DialogContent>
          <Stack spacing={2}>
            <DialogContentText id={`${id}-body`}>{t('calendar.linkDialog.body')}</DialogContentText>
            {/* Remounted per link: a new link's copy outcome starts unsaid. */}
            <CopyField
              key={shown.url}
              label={t('calendar.linkDialog.label')}
              value={shown.url}
              describedBy={`${id}-expires`}
              fullWidth
              texts={{
                copy: t('calendar.linkDialog.copy'),
                copied: t('calendar.linkDialog.copied'),
                failed: t('calendar.linkDialog.copyFailed'),
              }}
            />
            <Typography id={`${id}-expires`}>
              {t('calendar.linkDialog.expires', {
                when: clinicStamp(shown.expires_at, timeZone),
              })}
            </Typography>
            <div>
              <Button
                component="a"
                href={shown.url}
                target="_blank"
                rel="noopener noreferrer"
                variant="outlined"
                startIcon={<OpenInNewIcon />}
                aria-describedby={`${id}-open`}
              >
                {t('calendar.linkDialog.open')}
              </Button>
              <Typography id={`${id}-open`} variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                {t('calendar.linkDialog.openHelp')}
              </Typography>
            </div>
          </Stack>
        </DialogContent>
      ) : null}
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {t('common:close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
