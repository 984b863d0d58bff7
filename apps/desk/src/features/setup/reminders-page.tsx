import AddIcon from '../../lib/icons/add';
import DeleteOutlineIcon from '../../lib/icons/delete-outlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { MAX_REMINDER_LEADS, reminderSettingsSchema, type ReminderSettings } from '@marpe/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api';
import { errorText, serverFieldErrors, validate, type FieldErrors } from '../../lib/field-errors';
import { PageLoading } from '../../lib/page-loading';
import {
  getReminderSettings,
  reminderSettingsQueryKey,
  saveReminderSettings,
} from './api/reminder-settings';
import { leadTimeOf, leadUnits, minutesOf, type LeadTime } from './components/lead-times';
import { SaveBar } from './components/save-bar';
import { StepPage, useSavedStep } from '../../lib/setup-step';
import { Section } from '../../lib/section';

/** `/desk/setup/reminders`: appointment reminders, their lead times and quiet hours. */
export function RemindersPage() {
  const { t } = useTranslation('setup');
  const settings = useQuery({ queryKey: reminderSettingsQueryKey, queryFn: getReminderSettings });
  return (
    <StepPage step="reminders">
      <Typography sx={{ mb: 2 }}>{t('reminders.intro')}</Typography>
      {settings.isError ? <Alert severity="error">{errorText(t, settings.error)}</Alert> : null}
      {settings.data ? (
        <RemindersForm settings={settings.data} />
      ) : settings.isPending ? (
        <PageLoading />
      ) : null}
    </StepPage>
  );
}

function RemindersForm({ settings }: { settings: ReminderSettings }) {
  const { t } = useTranslation('setup');
  const queryClient = useQueryClient();
  const savedStep = useSavedStep('reminders');
  const channelId = useId();
  const [enabled, setEnabled] = useState(settings.enabled);
  const [leads, setLeads] = useState<LeadTime[]>(settings.lead_minutes.map(leadTimeOf));
  const [quiet, setQuiet] = useState(settings.quiet_hours);
  const [shabbat, setShabbat] = useState(settings.observe_shabbat_and_holidays);
  const [channel, setChannel] = useState<ReminderSettings['channel']>(settings.channel);
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: saveReminderSettings,
    onSuccess: async (saved) => {
      queryClient.setQueryData(reminderSettingsQueryKey, saved);
      await savedStep();
    },
  });

  /**
   * The schema's words name minutes: a lead time's field says its range in the form's units, and
   * the list says when one time is there twice. `raw` holds each field's untranslated message.
   */
  function readable(found: FieldErrors, raw: Record<string, string>): FieldErrors {
    const out: FieldErrors = {};
    for (const [path, message] of Object.entries(found)) {
      if (/^lead_minutes\.\d+$/.test(path)) out[path] = t('reminders.leadRange');
      else if (path === 'lead_minutes' && /twice/.test(raw[path] ?? '')) {
        out[path] = t('reminders.leadTwice');
      } else out[path] = message;
    }
    return out;
  }
  const rawOf = (issues: readonly { path: string | readonly PropertyKey[]; message: string }[]) =>
    Object.fromEntries(
      issues.map((i) => [
        typeof i.path === 'string' ? i.path : i.path.map(String).join('.'),
        i.message,
      ]),
    );

  async function submit(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    const body = {
      enabled,
      lead_minutes: leads.map(minutesOf),
      channel,
      quiet_hours: quiet,
      observe_shabbat_and_holidays: shabbat,
    };
    const checked = validate(t, reminderSettingsSchema, body);
    if (checked.errors) {
      const issues = reminderSettingsSchema.safeParse(body).error?.issues ?? [];
      setErrors(readable(checked.errors, rawOf(issues)));
      return;
    }
    try {
      await save.mutateAsync(checked.data);
    } catch (failure) {
      const fields = serverFieldErrors(t, failure);
      if (fields && failure instanceof ApiError) {
        setErrors(readable(fields, rawOf(failure.issues)));
        save.reset();
      }
    }
  }

  const leadsError = errors.lead_minutes;
  return (
    <form noValidate onSubmit={(e) => void submit(e)}>
      <Stack spacing={3}>
        <Paper sx={{ p: 3 }}>
          <FormControlLabel
            control={<Switch checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />}
            label={t('reminders.enabled')}
          />
        </Paper>

        <Section title={t('reminders.leads')} intro={t('reminders.leadsHelp')}>
          <Stack spacing={2}>
            {leads.map((lead, index) => {
              const number = index + 1;
              const error = errors[`lead_minutes.${index}`];
              return (
                <Stack
                  key={index}
                  direction="row"
                  spacing={1}
                  useFlexGap
                  role="group"
                  aria-label={t('reminders.lead', { number })}
                  sx={{ alignItems: 'flex-start', flexWrap: 'wrap' }}
                >
                  <TextField
                    label={t('reminders.amount', { number })}
                    value={lead.amount}
                    onChange={(e) =>
                      setLeads((all) =>
                        all.map((l, i) => (i === index ? { ...l, amount: e.target.value } : l)),
                      )
                    }
                    error={error !== undefined}
                    helperText={error}
                    required
                    slotProps={{ htmlInput: { inputMode: 'decimal', dir: 'ltr' } }}
                    sx={{ maxWidth: 300 }}
                  />
                  <TextField
                    select
                    label={t('reminders.unit', { number })}
                    value={lead.unit}
                    onChange={(e) =>
                      setLeads((all) =>
                        all.map((l, i) =>
                          i === index ? { ...l, unit: e.target.value as LeadTime['unit'] } : l,
                        ),
                      )
                    }
                    sx={{ maxWidth: 200 }}
                  >
                    {leadUnits.map((unit) => (
                      <MenuItem key={unit} value={unit}>
                        {t(`reminders.units.${unit}`)}
                      </MenuItem>
                    ))}
                  </TextField>
                  {leads.length > 1 ? (
                    <IconButton
                      aria-label={t('reminders.removeLead', { number })}
                      onClick={() => setLeads((all) => all.filter((_, i) => i !== index))}
                      sx={{ mt: 1 }}
                    >
                      <DeleteOutlineIcon />
                    </IconButton>
                  ) : null}
                </Stack>
              );
            })}
            {leadsError ? <Alert severity="error">{leadsError}</Alert> : null}
            {leads.length < MAX_REMINDER_LEADS ? (
              <div>
                <Button
                  startIcon={<AddIcon />}
                  onClick={() => setLeads((all) => [...all, { amount: '2', unit: 'hours' }])}
                >
                  {t('reminders.addLead')}
                </Button>
              </div>
            ) : null}
          </Stack>
        </Section>

        <Section title={t('reminders.quiet')} intro={t('reminders.quietHelp')}>
          <Stack spacing={2}>
            <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
              {(['start', 'end'] as const).map((edge) => (
                <TextField
                  key={edge}
                  type="time"
                  label={t(edge === 'start' ? 'reminders.quietStart' : 'reminders.quietEnd')}
                  value={quiet[edge]}
                  onChange={(e) => setQuiet((q) => ({ ...q, [edge]: e.target.value }))}
                  error={errors[`quiet_hours.${edge}`] !== undefined}
                  helperText={errors[`quiet_hours.${edge}`]}
                  sx={{ width: 160 }}
                  slotProps={{ inputLabel: { shrink: true } }}
                />
              ))}
            </Stack>
            <div>
              <FormControlLabel
                control={
                  <Switch checked={shabbat} onChange={(e) => setShabbat(e.target.checked)} />
                }
                label={t('reminders.shabbat')}
              />
              <FormHelperText sx={{ mt: 0 }}>{t('reminders.shabbatHelp')}</FormHelperText>
            </div>
          </Stack>
        </Section>

        <Paper sx={{ p: 3 }}>
          <FormControl>
            <FormLabel id={channelId}>{t('reminders.channel')}</FormLabel>
            <RadioGroup
              aria-labelledby={channelId}
              value={channel}
              onChange={(e) => setChannel(e.target.value as ReminderSettings['channel'])}
            >
              <FormControlLabel value="sms" control={<Radio />} label={t('reminders.sms')} />
              <FormControlLabel
                value="whatsapp"
                control={<Radio />}
                label={t('reminders.whatsapp')}
              />
            </RadioGroup>
          </FormControl>
        </Paper>
      </Stack>
      <SaveBar busy={save.isPending} error={save.error} invalid={Object.keys(errors).length > 0} />
    </form>
  );
}
