import ContentCopyIcon from '../../lib/icons/content-copy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { openingHoursSchema, weekDays, type IntegrationClinic, type WeekDay } from '@marpe/shared';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, validate } from '../../lib/field-errors';
import { useNotify } from '../../lib/notify';
import { PageLoading } from '../../lib/page-loading';
import {
  copyToOpenDays,
  formPathOf,
  hoursFormOf,
  openingHoursOf,
  setDayOpen,
  setDayTime,
  type HoursForm,
} from './components/hours-form';
import { SaveBar } from './components/save-bar';
import { StepPage } from '../../lib/setup-step';
import { useClinicForm, useClinicQuery } from './components/use-clinic-form';

/** `/desk/setup/hours`: the weekly opening hours the clinic page shows. */
export function HoursPage() {
  const { t } = useTranslation('setup');
  const clinic = useClinicQuery();
  return (
    <StepPage step="hours">
      <Typography sx={{ mb: 2 }}>{t('hours.intro')}</Typography>
      {clinic.isError ? <Alert severity="error">{errorText(t, clinic.error)}</Alert> : null}
      {clinic.data ? (
        <HoursEditor clinic={clinic.data} />
      ) : clinic.isPending ? (
        <PageLoading />
      ) : null}
    </StepPage>
  );
}

function HoursEditor({ clinic }: { clinic: IntegrationClinic }) {
  const { t } = useTranslation('setup');
  const notify = useNotify();
  const gridId = useId();
  const [hours, setHours] = useState<HoursForm>(() => hoursFormOf(clinic.opening_hours));
  const form = useClinicForm('hours', formPathOf);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = validate(t, openingHoursSchema, openingHoursOf(hours));
    if (checked.errors) {
      form.setErrors(checked.errors);
      return;
    }
    await form.save({ opening_hours: checked.data });
  }

  const dayName = (day: WeekDay) => t(`days.${day}`);
  return (
    <form noValidate onSubmit={(e) => void submit(e)}>
      <Paper sx={{ p: 3 }}>
        <TextField
          label={t('hours.title')}
          value={hours.title}
          onChange={(e) => setHours((h) => ({ ...h, title: e.target.value }))}
          error={form.errors.title !== undefined}
          helperText={form.errors.title ?? t('hours.titleHelp')}
          sx={{ mb: 3 }}
        />
        <Typography id={gridId} variant="h2" sx={{ mb: 1 }}>
          {t('hours.grid')}
        </Typography>
        <Box role="group" aria-labelledby={gridId}>
          {weekDays.map((day) => {
            const { open, start, end } = hours.days[day];
            const startError = form.errors[`days.${day}.start`];
            const endError = form.errors[`days.${day}.end`];
            return (
              <Stack
                key={day}
                role="group"
                aria-label={dayName(day)}
                direction="row"
                spacing={2}
                useFlexGap
                sx={{
                  alignItems: 'flex-start',
                  flexWrap: 'wrap',
                  py: 1.5,
                  borderBottom: 1,
                  borderColor: 'divider',
                }}
              >
                <Stack direction="row" sx={{ alignItems: 'center', width: 190, minHeight: 56 }}>
                  <Switch
                    checked={open}
                    onChange={(e) => setHours((h) => setDayOpen(h, day, e.target.checked))}
                    slotProps={{ input: { 'aria-label': t('hours.open', { day: dayName(day) }) } }}
                  />
                  <Typography sx={{ fontWeight: 500 }}>{dayName(day)}</Typography>
                </Stack>
                {open ? (
                  <>
                    <TextField
                      type="time"
                      label={t('hours.from')}
                      value={start}
                      onChange={(e) => setHours((h) => setDayTime(h, day, 'start', e.target.value))}
                      error={startError !== undefined}
                      helperText={startError}
                      sx={{ width: 150 }}
                      slotProps={{
                        inputLabel: { shrink: true },
                        htmlInput: { 'aria-label': t('hours.fromDay', { day: dayName(day) }) },
                      }}
                    />
                    <TextField
                      type="time"
                      label={t('hours.to')}
                      value={end}
                      onChange={(e) => setHours((h) => setDayTime(h, day, 'end', e.target.value))}
                      error={endError !== undefined}
                      helperText={endError}
                      sx={{ width: 150 }}
                      slotProps={{
                        inputLabel: { shrink: true },
                        htmlInput: { 'aria-label': t('hours.toDay', { day: dayName(day) }) },
                      }}
                    />
                    <Tooltip title={t('hours.copy')} describeChild>
                      <IconButton
                        aria-label={t('hours.copyDay', { day: dayName(day) })}
                        onClick={() => {
                          setHours((h) => copyToOpenDays(h, day));
                          notify(t('hours.copied', { day: dayName(day) }), 'info');
                        }}
                        sx={{ mt: 1 }}
                      >
                        <ContentCopyIcon />
                      </IconButton>
                    </Tooltip>
                  </>
                ) : (
                  <Typography color="text.secondary" sx={{ alignSelf: 'center' }}>
                    {t('hours.closed')}
                  </Typography>
                )}
              </Stack>
            );
          })}
        </Box>
      </Paper>
      <SaveBar busy={form.busy} error={form.error} invalid={Object.keys(form.errors).length > 0} />
    </form>
  );
}
