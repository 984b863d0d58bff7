import type { Slot } from '@marpe/shared';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import ToggleButton from '@mui/material/ToggleButton';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatLocalDate, formatTime, weekDayOf } from '../format';

export interface DateTimeStepProps {
  dates: string[];
  selectedDate: string | null;
  slots: Slot[];
  selectedSlot: Slot | null;
  loading: boolean;
  timeZone: string;
  onSelectDate: (date: string) => void;
  onSelectSlot: (slot: Slot) => void;
}

/** Step 3 (SPEC § 2): the available dates as toggle buttons, the day's times as a radio group. */
export function DateTimeStep(props: DateTimeStepProps) {
  const { dates, selectedDate, slots, selectedSlot, loading, timeZone } = props;
  const { t } = useTranslation();
  const datesId = useId();
  const timesId = useId();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Typography id={datesId} component="h3" variant="subtitle1">
        {t('booking.dates')}
      </Typography>
      <Box
        role="group"
        aria-labelledby={datesId}
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: 1,
          maxHeight: 200,
          overflowY: 'auto',
          p: 0.5,
        }}
      >
        {dates.map((date) => (
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
          </ToggleButton>
        ))}
      </Box>
      <Typography id={timesId} component="h3" variant="subtitle1">
        {t('booking.times')}
      </Typography>
      {loading ? (
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
            maxHeight: 300,
            overflowY: 'auto',
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
