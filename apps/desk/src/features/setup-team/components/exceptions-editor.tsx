import AddIcon from '../../../lib/icons/add';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldErrors } from '../../../lib/field-errors';
import { TimeRangesField } from '../../../lib/time-ranges-field';
import type { ExceptionForm } from '../caregiver-schedule';

/**
 * Dates that differ from the week: a day off, or other hours, each with a note for the staff.
 * Only today's and later dates: the API keeps the past as it was.
 */
export function ExceptionsEditor({
  exceptions,
  onChange,
  errors,
  today,
}: {
  exceptions: ExceptionForm[];
  onChange: (next: ExceptionForm[]) => void;
  errors: FieldErrors;
  today: string;
}) {
  const { t } = useTranslation('setup-team');
  const list = useRef<HTMLDivElement>(null);

  const update = (index: number, change: Partial<ExceptionForm>) =>
    onChange(exceptions.map((e, i) => (i === index ? { ...e, ...change } : e)));

  function add() {
    onChange([...exceptions, { date: '', note: '', dayOff: true, hours: [] }]);
    requestAnimationFrame(() => {
      const dates = list.current?.querySelectorAll<HTMLInputElement>('input[type="date"]');
      dates?.[dates.length - 1]?.focus();
    });
  }

  function remove(index: number) {
    onChange(exceptions.filter((_, i) => i !== index));
    requestAnimationFrame(() => {
      const dates = list.current?.querySelectorAll<HTMLInputElement>('input[type="date"]');
      (
        dates?.[Math.min(index, exceptions.length - 2)] ?? list.current?.querySelector('button')
      )?.focus();
    });
  }

  return (
    <Stack spacing={2} ref={list}>
      {exceptions.length === 0 ? (
        <Typography color="text.secondary">{t('exceptions.none')}</Typography>
      ) : null}
      {exceptions.map((exception, index) => (
        <ExceptionRow
          // Rows are plain values edited in place; an index is their identity.
          key={index}
          index={index}
          exception={exception}
          onChange={(change) => update(index, change)}
          onRemove={() => remove(index)}
          errors={errors}
          today={today}
        />
      ))}
      <div>
        <Button variant="outlined" startIcon={<AddIcon />} onClick={add}>
          {t('exceptions.add')}
        </Button>
      </div>
    </Stack>
  );
}

function ExceptionRow({
  index,
  exception,
  onChange,
  onRemove,
  errors,
  today,
}: {
  index: number;
  exception: ExceptionForm;
  onChange: (change: Partial<ExceptionForm>) => void;
  onRemove: () => void;
  errors: FieldErrors;
  today: string;
}) {
  const { t } = useTranslation('setup-team');
  const id = useId();
  const prefix = `exceptions.${index}`;
  const name = t('exceptions.item', { number: index + 1 });
  const hoursError = errors[`${prefix}.hours`];
  return (
    <Paper variant="outlined" role="group" aria-labelledby={`${id}-name`} sx={{ p: 2 }}>
      <Typography id={`${id}-name`} component="p" sx={{ fontWeight: 500, mb: 2 }}>
        {name}
      </Typography>
      <Stack spacing={2}>
        <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <TextField
            type="date"
            label={t('exceptions.date')}
            value={exception.date}
            onChange={(event) => onChange({ date: event.target.value })}
            error={errors[`${prefix}.date`] !== undefined}
            helperText={errors[`${prefix}.date`]}
            required
            fullWidth={false}
            sx={{ width: 200 }}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: today, dir: 'ltr' } }}
          />
          <TextField
            label={t('exceptions.note')}
            value={exception.note}
            onChange={(event) => onChange({ note: event.target.value })}
            error={errors[`${prefix}.note`] !== undefined}
            helperText={errors[`${prefix}.note`] ?? t('exceptions.noteHelp')}
            fullWidth={false}
            sx={{ flex: 1, minWidth: 220 }}
          />
        </Stack>
        <FormControl error={hoursError !== undefined}>
          <FormLabel id={`${id}-kind`}>{t('exceptions.kind')}</FormLabel>
          <RadioGroup
            row
            aria-labelledby={`${id}-kind`}
            value={exception.dayOff ? 'off' : 'hours'}
            onChange={(event) => {
              const dayOff = event.target.value === 'off';
              onChange({
                dayOff,
                hours:
                  dayOff || exception.hours.length > 0
                    ? exception.hours
                    : [{ start: '09:00', end: '13:00' }],
              });
            }}
          >
            <FormControlLabel value="off" control={<Radio />} label={t('exceptions.dayOff')} />
            <FormControlLabel
              value="hours"
              control={<Radio />}
              label={t('exceptions.otherHours')}
            />
          </RadioGroup>
          {hoursError ? <FormHelperText>{hoursError}</FormHelperText> : null}
        </FormControl>
        {exception.dayOff ? null : (
          <TimeRangesField
            legend={t('exceptions.hours', { number: index + 1 })}
            hideLegend
            value={exception.hours}
            onChange={(hours) => onChange({ hours })}
            labels={{
              start: t('hours.from'),
              end: t('hours.until'),
              add: t('hours.add'),
              remove: (i) => t('exceptions.removeHours', { number: i + 1, item: name }),
            }}
            errors={errors}
            errorPrefix={`${prefix}.hours`}
          />
        )}
        <div>
          <Button color="error" onClick={onRemove}>
            {t('exceptions.remove')}
            <span className="visually-hidden"> {name}</span>
          </Button>
        </div>
      </Stack>
    </Paper>
  );
}
