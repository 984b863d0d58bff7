import type { Slot } from '@marpe/shared';
import EventBusyIcon from '@mui/icons-material/EventBusy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import ToggleButton from '@mui/material/ToggleButton';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { VisuallyHidden } from '../../../lib/text-runs';
import { formatLocalDate, formatTime, weekDayOf } from '../format';

export interface DateTimeStepProps {
  dates: string[];
  selectedDate: string | null;
  slots: Slot[];
  selectedSlot: Slot | null;
  loading: boolean;
  /** The selected date's times failed to load: the dates stay, the times offer a retry. */
  slotsFailed: boolean;
  onRetrySlots: () => void;
  /** Dates on which the patient already has an appointment (one per date): marked, no times. */
  bookedDates: ReadonlySet<string>;
  /** What the selected booked date says instead of its times (a link to my appointments). */
  bookedDateNote: ReactNode;
  timeZone: string;
  onSelectDate: (date: string) => void;
  onSelectSlot: (slot: Slot) => void;
}

/** Step 3 (SPEC § 2): the available dates as toggle buttons, the day's times as a radio group. */
export function DateTimeStep(props: DateTimeStepProps) {
  const { dates, selectedDate, slots, selectedSlot, loading, slotsFailed, bookedDates } = props;
  const { timeZone } = props;
  const { t } = useTranslation();
  const datesId = useId();
  const timesId = useId();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Typography id={datesId} component="h3" variant="subtitle1">
        {t('booking.dates')}
      </Typography>
      {/* No scroll box of its own: on a phone the page scrolls, not a box inside it. */}
      <Box
        role="group"
        aria-labelledby={datesId}
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}
      >
        {dates.map((date) => {
          const booked = bookedDates.has(date);
          return (
            <ToggleButton
              key={date}
              value={date}
              size="small"
              color="primary"
              selected={date === selectedDate}
              onChange={() => {
                if (date !== selectedDate) props.onSelectDate(date);
              }}
              sx={{
                flexDirection: 'column',
                lineHeight: 1.3,
                minWidth: 72,
                // The patient's own appointment's date: hatched, with a mark that says why.
                ...(booked && {
                  borderStyle: 'dashed',
                  bgcolor: 'action.hover',
                  color: 'text.secondary',
                }),
                // The brand cyan is too light for text: the choice shows by border and weight.
                '&.Mui-selected, &.Mui-selected:hover': {
                  color: 'text.primary',
                  fontWeight: 700,
                  borderColor: 'primary.main',
                  boxShadow: (theme) => `inset 0 0 0 1px ${theme.palette.primary.main}`,
                },
              }}
            >
              <span>{t(`booking.weekDays.${weekDayOf(date)}` as 'booking.weekDays.0')}</span>
              <span>{formatLocalDate(date)}</span>
              {booked && (
                <>
                  <Box
                    component="span"
                    aria-hidden="true"
                    sx={{ display: 'flex', alignItems: 'center', gap: 0.25, fontSize: '0.75rem' }}
                  >
                    <EventBusyIcon sx={{ fontSize: '0.875rem' }} />
                    {t('booking.bookedDate')}
                  </Box>
                  <VisuallyHidden>{`, ${t('booking.bookedDateLabel')}`}</VisuallyHidden>
                </>
              )}
            </ToggleButton>
          );
        })}
      </Box>
      <Typography id={timesId} component="h3" variant="subtitle1">
        {t('booking.times')}
      </Typography>
      {selectedDate !== null && bookedDates.has(selectedDate) ? (
        <Alert severity="info" role="note">
          {props.bookedDateNote}
        </Alert>
      ) : slotsFailed ? (
        // The dates above stay; the times try again on request.
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={props.onRetrySlots}>
              {t('booking.retry')}
            </Button>
          }
        >
          {t('booking.errors.fetchFailed')}
        </Alert>
      ) : loading ? (
        <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <CircularProgress size={20} aria-hidden="true" />
          <Typography>{t('booking.loadingTimes')}</Typography>
        </Box>
      ) : slots.length === 0 ? (
        <Alert severity="info" role="note">
          {t('booking.noSlots')}
        </Alert>
      ) : (
        <RadioGroup
          aria-labelledby={timesId}
          value={selectedSlot?.start ?? ''}
          onChange={(event) => {
            const slot = slots.find((s) => s.start === event.target.value);
            if (slot) props.onSelectSlot(slot);
          }}
          sx={{
            flexDirection: 'row',
            flexWrap: 'wrap',
            gap: 1,
            p: 0.5,
          }}
        >
          {slots.map((slot) => (
            <FormControlLabel
              key={slot.start}
              value={slot.start}
              control={<Radio size="small" />}
              label={<bdi>{formatTime(slot.start, timeZone)}</bdi>}
              sx={{
                m: 0,
                paddingInlineEnd: 1.5,
                border: 1,
                borderRadius: 1,
                borderColor: selectedSlot?.start === slot.start ? 'primary.main' : 'divider',
              }}
            />
          ))}
        </RadioGroup>
      )}
    </Box>
  );
}
