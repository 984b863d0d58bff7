import ContentCopyIcon from '../../../lib/icons/content-copy';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { weekDays, type WeekDay } from '@marpe/shared';
import { useTranslation } from 'react-i18next';
import type { FieldErrors } from '../../../lib/field-errors';
import { TimeRangesField, type TimeRangesLabels } from '../../../lib/time-ranges-field';
import { copyDayToWorkingDays, setDayWorks, type ScheduleForm } from '../caregiver-schedule';

/**
 * The caregiver's week: each day on or off, its working hours (several ranges) and its own breaks;
 * then the breaks of every day. A day turned on starts with the nearest earlier day's hours.
 */
export function WeeklyHoursEditor({
  form,
  onChange,
  errors,
}: {
  form: ScheduleForm;
  onChange: (next: ScheduleForm) => void;
  errors: FieldErrors;
}) {
  const { t } = useTranslation('setup-team');
  const workingDays = weekDays.filter((day) => form.hours[day].length > 0).length;
  const dayName = (day: WeekDay) => t(`days.${day}`);

  const hoursLabels = (day: WeekDay): TimeRangesLabels => ({
    start: t('hours.from'),
    end: t('hours.until'),
    add: t('hours.add'),
    remove: (index) => t('hours.remove', { number: index + 1, day: dayName(day) }),
  });
  const breakLabels = (where: string): TimeRangesLabels => ({
    start: t('hours.from'),
    end: t('hours.until'),
    add: t('breaks.add'),
    remove: (index) => t('breaks.remove', { number: index + 1, where }),
    empty: t('breaks.none'),
  });

  return (
    <Stack spacing={0}>
      {weekDays.map((day) => {
        const works = form.hours[day].length > 0;
        return (
          <Stack
            key={day}
            direction={{ xs: 'column', md: 'row' }}
            spacing={2}
            useFlexGap
            sx={{ py: 2, borderBottom: 1, borderColor: 'divider', alignItems: 'flex-start' }}
          >
            <Box sx={{ width: { md: 170 }, flexShrink: 0 }}>
              <FormControlLabel
                control={
                  <Switch
                    checked={works}
                    onChange={(event) => onChange(setDayWorks(form, day, event.target.checked))}
                  />
                }
                label={dayName(day)}
              />
              {works ? null : (
                <Typography variant="body2" color="text.secondary">
                  {t('hours.dayOff')}
                </Typography>
              )}
            </Box>
            {works ? (
              <>
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <TimeRangesField
                    legend={t('hours.on', { day: dayName(day) })}
                    value={form.hours[day]}
                    onChange={(hours) =>
                      onChange({ ...form, hours: { ...form.hours, [day]: hours } })
                    }
                    labels={hoursLabels(day)}
                    errors={errors}
                    errorPrefix={`hours.${day}`}
                  />
                  {workingDays > 1 ? (
                    <Button
                      size="small"
                      startIcon={<ContentCopyIcon />}
                      onClick={() => onChange(copyDayToWorkingDays(form, day))}
                      sx={{ mt: 1 }}
                    >
                      {t('hours.copy', { day: dayName(day) })}
                    </Button>
                  ) : null}
                </Box>
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <TimeRangesField
                    legend={t('breaks.on', { day: dayName(day) })}
                    value={form.dayBreaks[day]}
                    onChange={(breaks) =>
                      onChange({ ...form, dayBreaks: { ...form.dayBreaks, [day]: breaks } })
                    }
                    labels={breakLabels(dayName(day))}
                    errors={errors}
                    errorPrefix={`breaks.${day}`}
                    newRange={() => ({ start: '12:00', end: '12:30' })}
                  />
                </Box>
              </>
            ) : null}
          </Stack>
        );
      })}
      <Box sx={{ pt: 2 }}>
        <TimeRangesField
          legend={t('breaks.everyDay')}
          value={form.everyDayBreaks}
          onChange={(breaks) => onChange({ ...form, everyDayBreaks: breaks })}
          labels={breakLabels(t('breaks.everyDayWhere'))}
          errors={errors}
          errorPrefix="breaks.every"
          newRange={() => ({ start: '12:00', end: '12:30' })}
        />
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {t('breaks.everyDayHelp')}
        </Typography>
      </Box>
    </Stack>
  );
}
