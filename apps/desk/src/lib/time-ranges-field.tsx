import AddIcon from './icons/add';
import DeleteOutlineIcon from './icons/delete-outlined';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useRef } from 'react';
import type { FieldErrors } from './field-errors';

/** A time range of one day, clinic time, as the API writes it (`HH:mm`). */
export interface TimeRangeValue {
  start: string;
  end: string;
}

/** The words of a time-range list, from the feature that uses it (each has its own texts). */
export interface TimeRangesLabels {
  /** Each range's first field, visible. */
  start: string;
  /** Each range's second field, visible. */
  end: string;
  /** The button that adds a range. */
  add: string;
  /** The accessible name of the button that removes range `index` (from 0). */
  remove: (index: number) => string;
  /** Said when the list is empty; nothing when absent. */
  empty?: string;
}

/**
 * A list of time ranges (working hours, breaks, a date's other hours): each range's start and end
 * as time fields, a button to remove it, one to add another. Errors come dotted as the API names
 * them: `<errorPrefix>.<index>.start|end`, and `<errorPrefix>.<index>` for the range as a whole
 * (it overlaps another), which its start field says.
 */
export function TimeRangesField({
  legend,
  hideLegend = false,
  value,
  onChange,
  labels,
  errors,
  errorPrefix,
  newRange,
  disabled = false,
}: {
  /** What the list is ("Working hours on Sunday"): the group's name. */
  legend: string;
  /** Visually hidden legend, when the layout already shows what it is. */
  hideLegend?: boolean;
  value: readonly TimeRangeValue[];
  onChange: (next: TimeRangeValue[]) => void;
  labels: TimeRangesLabels;
  errors?: FieldErrors;
  errorPrefix?: string;
  /** The range a new row starts with: after the last one by default. */
  newRange?: (current: readonly TimeRangeValue[]) => TimeRangeValue;
  disabled?: boolean;
}) {
  const id = useId();
  const list = useRef<HTMLDivElement>(null);
  const errorOf = (key: string) =>
    errorPrefix === undefined ? undefined : errors?.[`${errorPrefix}.${key}`];

  function update(index: number, part: keyof TimeRangeValue, time: string) {
    onChange(value.map((range, i) => (i === index ? { ...range, [part]: time } : range)));
  }

  function add() {
    onChange([...value, (newRange ?? nextRange)(value)]);
    // The new row's first field, so a keyboard user types on where they were.
    requestAnimationFrame(() => {
      const inputs = list.current?.querySelectorAll<HTMLInputElement>('input[type="time"]');
      inputs?.[inputs.length - 2]?.focus();
    });
  }

  function remove(index: number) {
    onChange(value.filter((_, i) => i !== index));
    // Focus stays in the list: on the range that took the removed one's place, else the add button.
    requestAnimationFrame(() => {
      const buttons = list.current?.querySelectorAll<HTMLButtonElement>('button');
      const target = buttons?.[Math.min(index, value.length - 1)];
      target?.focus();
    });
  }

  return (
    <Stack
      role="group"
      aria-labelledby={`${id}-legend`}
      spacing={1}
      ref={list}
      sx={{ minWidth: 0 }}
    >
      <Typography
        id={`${id}-legend`}
        component="p"
        variant="body2"
        className={hideLegend ? 'visually-hidden' : undefined}
        sx={{ fontWeight: 500 }}
      >
        {legend}
      </Typography>
      {value.length === 0 && labels.empty ? (
        <Typography variant="body2" color="text.secondary">
          {labels.empty}
        </Typography>
      ) : null}
      {value.map((range, index) => {
        const startError = errorOf(`${index}.start`) ?? errorOf(String(index));
        const endError = errorOf(`${index}.end`);
        return (
          <Stack
            // Rows are plain values edited in place; an index is their identity.
            key={index}
            direction="row"
            spacing={1}
            useFlexGap
            sx={{ alignItems: 'flex-start', flexWrap: 'wrap' }}
          >
            <TimeField
              label={labels.start}
              value={range.start}
              onChange={(time) => update(index, 'start', time)}
              error={startError}
              disabled={disabled}
            />
            <TimeField
              label={labels.end}
              value={range.end}
              onChange={(time) => update(index, 'end', time)}
              error={endError}
              disabled={disabled}
            />
            <IconButton
              onClick={() => remove(index)}
              aria-label={labels.remove(index)}
              disabled={disabled}
              sx={{ mt: 1 }}
            >
              <DeleteOutlineIcon />
            </IconButton>
          </Stack>
        );
      })}
      <div>
        <Button size="small" startIcon={<AddIcon />} onClick={add} disabled={disabled}>
          {labels.add}
        </Button>
      </div>
    </Stack>
  );
}

function TimeField({
  label,
  value,
  onChange,
  error,
  disabled,
}: {
  label: string;
  value: string;
  onChange: (time: string) => void;
  error: string | undefined;
  disabled: boolean;
}) {
  return (
    <TextField
      type="time"
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error !== undefined}
      helperText={error}
      disabled={disabled}
      fullWidth={false}
      sx={{ width: 150 }}
      slotProps={{
        inputLabel: { shrink: true },
        // Times read left to right in Hebrew too.
        htmlInput: { dir: 'ltr', step: 300 },
      }}
    />
  );
}

const minutesOf = (time: string) => {
  const [h, m] = time.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};
const timeOf = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** A new range: an hour after the last one ends (within the day), else 09:00–13:00. */
export function nextRange(current: readonly TimeRangeValue[]): TimeRangeValue {
  const last = current.at(-1);
  if (!last || !/^\d{2}:\d{2}$/.test(last.end)) return { start: '09:00', end: '13:00' };
  const start = Math.min(minutesOf(last.end) + 60, 22 * 60);
  return { start: timeOf(start), end: timeOf(Math.min(start + 60, 23 * 60 + 55)) };
}
