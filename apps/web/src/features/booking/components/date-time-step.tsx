import type { Slot } from '@marpe/shared';
import EventBusyIcon from '../../../lib/icons/event-busy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import ToggleButton from '@mui/material/ToggleButton';
import Typography from '@mui/material/Typography';
import { useId, useMemo, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { monthName, spokenDate } from '../../../lib/clinic-time';
import { dayOfMonth, groupByMonth } from '../date-groups';
import { formatTime, weekDayOf } from '../format';

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

/** One date: its weekday and day to the eye, the whole date as a person says it to the ear. */
function DateButton({
  date,
  selected,
  booked,
  language,
  onSelect,
}: {
  date: string;
  selected: boolean;
  booked: boolean;
  language: string;
  onSelect: () => void;
}) {
  const { t } = useTranslation();
  const spoken = spokenDate(date, language);
  return (
    <ToggleButton
      value={date}
      data-date={date}
      size="small"
      color="primary"
      selected={selected}
      onChange={onSelect}
      aria-label={booked ? `${spoken}, ${t('booking.bookedDateLabel')}` : spoken}
      sx={{
        flexDirection: 'column',
        justifyContent: 'flex-start',
        lineHeight: 1.2,
        py: 0.75,
        // Dark enough to read as choosable, not as disabled grey.
        color: 'text.primary',
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
      <Box component="span" sx={{ fontSize: '0.75rem' }}>
        {t(`booking.weekDays.${weekDayOf(date)}` as 'booking.weekDays.0')}
      </Box>
      <Box component="span" sx={{ fontSize: '1.125rem', fontWeight: 'inherit' }}>
        {dayOfMonth(date)}
      </Box>
      {booked && (
        <Box
          component="span"
          sx={{ display: 'flex', alignItems: 'center', gap: 0.25, fontSize: '0.6875rem' }}
        >
          <EventBusyIcon sx={{ fontSize: '0.75rem' }} />
          {t('booking.bookedDate')}
        </Box>
      )}
    </ToggleButton>
  );
}

/**
 * Arrow keys move between the date buttons, in reading order: the next date is to the left in
 * Hebrew and to the right in English; up and down go back and forth too. Tab still reaches each.
 */
function moveBetweenDates(event: KeyboardEvent<HTMLElement>) {
  const step = {
    ArrowDown: 1,
    ArrowUp: -1,
    ArrowLeft: -1,
    ArrowRight: 1,
  }[event.key];
  if (step === undefined || !(event.target instanceof HTMLElement)) return;
  const rtl = getComputedStyle(event.currentTarget).direction === 'rtl';
  const forward =
    event.key === 'ArrowLeft' || event.key === 'ArrowRight' ? (rtl ? -step : step) : step;
  const buttons = [...event.currentTarget.querySelectorAll<HTMLElement>('button[data-date]')];
  const next = buttons[buttons.indexOf(event.target) + forward];
  if (next) {
    event.preventDefault();
    next.focus();
  }
}

/**
 * Step 3 (docs/product/booking.md#the-page): the available dates as toggle buttons under their
 * month's heading, each short to the eye (weekday and day) and named in full for the ear; the day's
 * times as a radio group whose heading names the date.
 */
export function DateTimeStep(props: DateTimeStepProps) {
  const { dates, selectedDate, slots, selectedSlot, loading, slotsFailed, bookedDates } = props;
  const { timeZone } = props;
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const datesId = useId();
  const timesId = useId();
  const monthId = useId();
  const months = useMemo(() => groupByMonth(dates), [dates]);
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Typography id={datesId} component="h3" variant="subtitle1">
        {t('booking.dates')}
      </Typography>
      {/* No scroll box of its own: on a phone the page scrolls, not a box inside it. */}
      <Box
        role="group"
        aria-labelledby={datesId}
        onKeyDown={moveBetweenDates}
        sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
      >
        {months.map(({ month, dates: monthDates }) => (
          <Box
            key={month}
            role="group"
            aria-labelledby={`${monthId}-${month}`}
            sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}
          >
            <Typography
              id={`${monthId}-${month}`}
              component="h4"
              variant="subtitle2"
              color="textSecondary"
            >
              {monthName(month, language)}
            </Typography>
            {/* Even columns across the width, as a calendar's days are. */}
            <Box
              sx={{
                display: 'grid',
                gridTemplateColumns: 'repeat(auto-fill, minmax(56px, 1fr))',
                gap: 1,
              }}
            >
              {monthDates.map((date) => (
                <DateButton
                  key={date}
                  date={date}
                  selected={date === selectedDate}
                  booked={bookedDates.has(date)}
                  language={language}
                  onSelect={() => {
                    if (date !== selectedDate) props.onSelectDate(date);
                  }}
                />
              ))}
            </Box>
          </Box>
        ))}
      </Box>
      <Typography id={timesId} component="h3" variant="subtitle1">
        {selectedDate === null
          ? t('booking.times')
          : t('booking.timesOn', { date: spokenDate(selectedDate, language) })}
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
