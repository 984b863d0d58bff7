import LockIcon from '../../lib/icons/lock';
import Alert from '@mui/material/Alert';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { updateClinicBodySchema, type IntegrationClinic } from '@marpe/shared';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, validate, type FieldErrors } from '../../lib/field-errors';
import { PageLoading } from '../../lib/page-loading';
import { parseAmount } from './components/lead-times';
import { SaveBar } from './components/save-bar';
import { StepPage } from '../../lib/setup-step';
import { useClinicForm, useClinicQuery } from './components/use-clinic-form';

/** `/desk/setup/rules`: the booking rules patients meet online. */
export function RulesPage() {
  const { t } = useTranslation('setup');
  const clinic = useClinicQuery();
  return (
    <StepPage step="rules">
      <Typography sx={{ mb: 2 }}>{t('rules.intro')}</Typography>
      {clinic.isError ? <Alert severity="error">{errorText(t, clinic.error)}</Alert> : null}
      {clinic.data ? <RulesForm clinic={clinic.data} /> : clinic.isPending ? <PageLoading /> : null}
    </StepPage>
  );
}

/** The API's fields, as the form names them, with the range each says when it is refused. */
const fields = {
  notice: { path: 'default_marpe_rules.min_notice_minutes', range: 'rules.noticeRange' },
  horizon: { path: 'default_marpe_rules.booking_horizon_days', range: 'rules.horizonRange' },
  step: { path: 'default_marpe_rules.slot_step_minutes', range: 'rules.stepRange' },
  upcoming: { path: 'settings.max_upcoming_appointments', range: 'rules.upcomingRange' },
  cancel: { path: 'settings.cancel_notice_minutes', range: 'rules.cancelRange' },
} as const;
type NumberField = keyof typeof fields;

/** Minutes shown as hours: 90 → "1.5". */
const hoursOf = (minutes: number) => String(Math.round((minutes / 60) * 100) / 100);

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Paper component="section" aria-labelledby={id} sx={{ p: 3 }}>
      <Typography id={id} variant="h2" sx={{ mb: 2 }}>
        {title}
      </Typography>
      <Stack spacing={2}>{children}</Stack>
    </Paper>
  );
}

function RulesForm({ clinic }: { clinic: IntegrationClinic }) {
  const { t } = useTranslation('setup');
  const onePerDateId = useId();
  const noticesId = useId();
  const [values, setValues] = useState<Record<NumberField, string>>({
    notice: hoursOf(clinic.default_marpe_rules.min_notice_minutes),
    horizon: String(clinic.default_marpe_rules.booking_horizon_days),
    step: String(clinic.default_marpe_rules.slot_step_minutes),
    upcoming: String(clinic.settings.max_upcoming_appointments),
    cancel: hoursOf(clinic.settings.cancel_notice_minutes),
  });
  const [acceptNew, setAcceptNew] = useState(clinic.settings.is_accept_new_patients);
  const allDayId = useId();
  const [allDayBlocks, setAllDayBlocks] = useState(clinic.settings.calendar_all_day_events_block);
  const [notices, setNotices] = useState(clinic.settings.change_notices);
  // The schema's words name minutes; the form speaks in hours and days, so each field says its range.
  const byField = (errors: FieldErrors): FieldErrors => {
    const mapped: FieldErrors = {};
    for (const [name, { path, range }] of Object.entries(fields)) {
      if (errors[path] !== undefined) {
        mapped[name] =
          values[name as NumberField].trim() === '' ? t('common:validation.required') : t(range);
      }
    }
    return mapped;
  };
  const form = useClinicForm(
    'rules',
    (path) => Object.entries(fields).find(([, f]) => f.path === path)?.[0] ?? path,
  );

  async function submit(event: FormEvent) {
    event.preventDefault();
    const minutes = (hours: string) => Math.round(parseAmount(hours) * 60);
    const body = {
      settings: {
        is_accept_new_patients: acceptNew,
        max_upcoming_appointments: parseAmount(values.upcoming),
        cancel_notice_minutes: minutes(values.cancel),
        change_notices: notices,
        calendar_all_day_events_block: allDayBlocks,
      },
      default_marpe_rules: {
        min_notice_minutes: minutes(values.notice),
        booking_horizon_days: parseAmount(values.horizon),
        slot_step_minutes: parseAmount(values.step),
      },
    };
    const checked = validate(t, updateClinicBodySchema, body);
    if (checked.errors) {
      form.setErrors(byField(checked.errors));
      return;
    }
    await form.save(checked.data);
  }

  const numberField = (name: NumberField, label: string, help: string, unit?: 'decimal') => (
    <TextField
      label={label}
      value={values[name]}
      onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
      error={form.errors[name] !== undefined}
      helperText={form.errors[name] ?? help}
      required
      slotProps={{
        htmlInput: { inputMode: unit === 'decimal' ? 'decimal' : 'numeric', dir: 'ltr' },
      }}
      sx={{ maxWidth: 420 }}
    />
  );

  return (
    <form noValidate onSubmit={(e) => void submit(e)}>
      <Stack spacing={3}>
        <Section title={t('rules.booking')}>
          {numberField('notice', t('rules.notice'), t('rules.noticeHelp'), 'decimal')}
          {numberField('horizon', t('rules.horizon'), t('rules.horizonHelp'))}
          {numberField('step', t('rules.step'), t('rules.stepHelp'))}
          <div>
            <FormControlLabel
              control={
                <Switch
                  checked={allDayBlocks}
                  onChange={(e) => setAllDayBlocks(e.target.checked)}
                  slotProps={{ input: { 'aria-describedby': allDayId } }}
                />
              }
              label={t('rules.allDayBlocks')}
            />
            <FormHelperText id={allDayId} sx={{ mt: 0 }}>
              {t('rules.allDayBlocksHelp')}
            </FormHelperText>
          </div>
        </Section>
        <Section title={t('rules.patients')}>
          <div>
            <FormControlLabel
              control={
                <Switch checked={acceptNew} onChange={(e) => setAcceptNew(e.target.checked)} />
              }
              label={t('rules.acceptNew')}
            />
            <FormHelperText sx={{ mt: 0 }}>{t('rules.acceptNewHelp')}</FormHelperText>
          </div>
          {numberField('upcoming', t('rules.upcoming'), t('rules.upcomingHelp'))}
          {numberField('cancel', t('rules.cancel'), t('rules.cancelHelp'), 'decimal')}
          <Stack
            direction="row"
            spacing={1.5}
            sx={{ alignItems: 'flex-start', bgcolor: 'grey.100', borderRadius: 1, p: 2 }}
            aria-labelledby={onePerDateId}
            role="group"
          >
            <LockIcon aria-hidden sx={{ mt: 0.25, color: 'text.secondary' }} />
            <div>
              <Typography id={onePerDateId} sx={{ fontWeight: 500 }}>
                {t('rules.onePerDate')}: {t('rules.onePerDateState')}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {t('rules.onePerDateHelp')}
              </Typography>
            </div>
          </Stack>
        </Section>
        <Section title={t('rules.notices')}>
          <Typography>{t('rules.noticesIntro')}</Typography>
          {(['booked', 'moved', 'cancelled'] as const).map((kind) => {
            const key = kind.charAt(0).toUpperCase() + kind.slice(1);
            return (
              <div key={kind}>
                <FormControlLabel
                  control={
                    <Switch
                      checked={notices[kind]}
                      onChange={(e) => setNotices((n) => ({ ...n, [kind]: e.target.checked }))}
                      slotProps={{ input: { 'aria-describedby': `${noticesId}-${kind}` } }}
                    />
                  }
                  label={t(`rules.notice${key}`)}
                />
                <FormHelperText id={`${noticesId}-${kind}`} sx={{ mt: 0 }}>
                  {t(`rules.notice${key}Help`)}
                </FormHelperText>
              </div>
            );
          })}
        </Section>
      </Stack>
      <SaveBar busy={form.busy} error={form.error} invalid={Object.keys(form.errors).length > 0} />
    </form>
  );
}
