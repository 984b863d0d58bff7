import type { PatientAppointment } from '@marpe/shared';
import ArrowDownwardIcon from '../../../lib/icons/arrow-downward';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Ltr } from '../../../lib/text-runs';
import { formatDate, formatTime } from '../format';
import { SpokenDate } from './spoken-date';
import { SummaryList, type SummaryListProps } from './summary-list';

export interface ConfirmDialogProps extends SummaryListProps {
  open: boolean;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
  /** "Change time": the appointment being moved, shown as old → new above the new details. */
  current?: PatientAppointment | null;
  /** "Change time": the title and the button say so, not "confirm the appointment". */
  rescheduling?: boolean;
}

/** When, on the clinic's clock: the short date and the time, said in full to the ear. */
function When({ start, timeZone }: { start: string; timeZone: string }) {
  return (
    <SpokenDate instant={start} timeZone={timeZone}>
      <Ltr>{formatDate(start, timeZone)}</Ltr> <Ltr>{formatTime(start, timeZone)}</Ltr>
    </SpokenDate>
  );
}

/**
 * The summary with cancel and confirm, at most 400 px wide (docs/product/booking.md#confirming).
 */
export function ConfirmDialog({
  open,
  busy,
  onCancel,
  onConfirm,
  current = null,
  rescheduling = false,
  ...summary
}: ConfirmDialogProps) {
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
      <DialogTitle id={titleId}>
        {t(rescheduling ? 'booking.rescheduleDialogTitle' : 'booking.dialogTitle')}
      </DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        {current && summary.slot && (
          <Box
            component="dl"
            sx={{
              m: 0,
              p: 1.5,
              borderRadius: 1,
              bgcolor: 'action.hover',
              display: 'grid',
              gridTemplateColumns: 'auto 1fr',
              columnGap: 2,
              rowGap: 0.5,
              alignItems: 'center',
            }}
          >
            <dt>{t('booking.currentAppointment')}</dt>
            <Box component="dd" sx={{ m: 0, color: 'text.secondary' }}>
              <When start={current.start_date} timeZone={summary.timeZone} />
            </Box>
            <Box
              aria-hidden="true"
              sx={{ gridColumn: '1 / -1', display: 'flex', justifyContent: 'center' }}
            >
              <ArrowDownwardIcon fontSize="small" />
            </Box>
            <dt>{t('booking.newTime')}</dt>
            <Box component="dd" sx={{ m: 0, fontWeight: 700 }}>
              <When start={summary.slot.start} timeZone={summary.timeZone} />
            </Box>
          </Box>
        )}
        <SummaryList {...summary} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          {t('booking.cancel')}
        </Button>
        <Button variant="contained" onClick={onConfirm} loading={busy}>
          {t(rescheduling ? 'booking.confirmReschedule' : 'booking.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
