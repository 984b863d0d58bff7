import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import {
  createCaregiverBodySchema,
  updateCaregiverBodySchema,
  type CreateCaregiverBody,
  type IntegrationAppointmentType,
  type IntegrationCaregiver,
  type IntegrationClinic,
  type UpdateCaregiverBody,
} from '@marpe/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import {
  errorText,
  serverFieldErrors,
  validate,
  type FieldErrors,
} from '../../../lib/field-errors';
import { ImageField } from '../../../lib/image-field';
import { useNotify } from '../../../lib/notify';
import { Section } from '../../../lib/section';
import { appointmentTypesQueryKey } from '../api/appointment-types';
import {
  caregiverQueryKey,
  caregiversQueryKey,
  createCaregiver,
  updateCaregiver,
} from '../api/caregivers';
import {
  clinicToday,
  exceptionProblems,
  ruleValueOf,
  scheduleBodyOf,
  scheduleErrorsOf,
  scheduleFormOf,
} from '../caregiver-schedule';
import { BookingRulesFields, ruleNames, type RulesForm } from './booking-rules-fields';
import { CalendarSection, useCalendarIdField } from './calendar-section';
import { CaregiverTypesSection } from './caregiver-types-section';
import { ExceptionsEditor } from './exceptions-editor';
import { LeaveGuard } from './leave-guard';
import { WeeklyHoursEditor } from './weekly-hours-editor';

/** Where the form goes once saved or left, and where a caregiver not found links back to. */
export const listPath = '/setup/caregivers';

const ruleFormOf = (caregiver: IntegrationCaregiver | null): RulesForm => {
  const own = caregiver?.marpe_rules;
  const text = (value: number | null | undefined) =>
    value === null || value === undefined ? null : String(value);
  return {
    slot_step_minutes: text(own?.slot_step_minutes),
    min_notice_minutes: text(own?.min_notice_minutes),
    booking_horizon_days: text(own?.booking_horizon_days),
  };
};

/** A caregiver's details, types, week, exceptions, rules and calendar, checked before saving. */
export function CaregiverForm({
  caregiver,
  types,
  clinic,
  nextSortOrder,
}: {
  caregiver: IntegrationCaregiver | null;
  types: IntegrationAppointmentType[];
  clinic: IntegrationClinic;
  nextSortOrder: number;
}) {
  const { t } = useTranslation('setup-team');
  const navigate = useNavigate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const isNew = caregiver === null;

  const [name, setName] = useState(caregiver?.name ?? '');
  const [license, setLicense] = useState(caregiver?.license_number ?? '');
  const [image, setImage] = useState<string | null>(caregiver?.image ?? null);
  const [active, setActive] = useState(true);
  const [typeIds, setTypeIds] = useState<number[]>(
    caregiver?.appointment_type_ids ?? (types.length === 1 && types[0] ? [types[0].id] : []),
  );
  const [schedule, setSchedule] = useState(() => scheduleFormOf(caregiver?.marpe_rules ?? null));
  const [rules, setRules] = useState<RulesForm>(() => ruleFormOf(caregiver));
  const calendarId = useCalendarIdField(caregiver);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [shown, setShown] = useState(0);
  const today = clinicToday(clinic.timezone);
  // What the form holds, to ask before leaving it changed and not saved.
  const snapshot = JSON.stringify([
    name,
    license,
    image,
    active,
    typeIds,
    schedule,
    rules,
    calendarId.body,
  ]);
  const [initial] = useState(snapshot);
  const leaving = useRef(false);
  const unsaved = useCallback(() => !leaving.current && snapshot !== initial, [snapshot, initial]);

  const save = useMutation({
    // A new caregiver's body was checked with the create schema: every required field is there.
    mutationFn: (body: UpdateCaregiverBody) =>
      caregiver
        ? updateCaregiver(caregiver.id, body)
        : createCaregiver(body as CreateCaregiverBody),
  });

  // After errors are shown, the first field named takes focus (a long form: it may be far up).
  useEffect(() => {
    if (shown === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [shown]);

  function showErrors(found: FieldErrors) {
    setErrors(found);
    setShown((n) => n + 1);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const body = {
      name,
      license_number: license,
      image,
      ...calendarId.body,
      appointment_type_ids: typeIds,
      marpe_rules: {
        slot_step_minutes: ruleValueOf(rules.slot_step_minutes),
        min_notice_minutes: ruleValueOf(rules.min_notice_minutes),
        booking_horizon_days: ruleValueOf(rules.booking_horizon_days),
        ...scheduleBodyOf(schedule),
      },
      ...(isNew ? { is_active: active, sort_order: nextSortOrder } : {}),
    };
    const checked = validate(
      t,
      isNew ? createCaregiverBodySchema : updateCaregiverBodySchema,
      body,
    );
    const found = checked.errors ? scheduleErrorsOf(checked.errors, schedule) : {};
    for (const rule of ruleNames) {
      if (rules[rule]?.trim() === '')
        found[`marpe_rules.${rule}`] = t('common:validation.required');
    }
    for (const [key, problem] of Object.entries(exceptionProblems(schedule, today))) {
      found[key] ??= t(`exceptions.${problem}`);
    }
    if (Object.keys(found).length > 0 || !checked.data) {
      showErrors(found);
      return;
    }
    setErrors({});
    try {
      const saved = await save.mutateAsync(checked.data);
      queryClient.setQueryData(caregiverQueryKey(saved.id), saved);
      await queryClient.invalidateQueries({ queryKey: caregiversQueryKey });
      await queryClient.invalidateQueries({ queryKey: appointmentTypesQueryKey });
      notify(t(isNew ? 'caregiver.added' : 'caregiver.saved', { name: saved.name }));
      leaving.current = true;
      void navigate(listPath);
    } catch (failure) {
      const fields = serverFieldErrors(t, failure);
      if (fields) showErrors(scheduleErrorsOf(fields, schedule));
    }
  }

  const hasErrors = Object.keys(errors).length > 0;
  const typesError =
    errors.appointment_type_ids ??
    Object.entries(errors).find(([key]) => key.startsWith('appointment_type_ids.'))?.[1];
  const otherFailure = save.isError && serverFieldErrors(t, save.error) === null;

  return (
    <form noValidate ref={formRef} onSubmit={(event) => void submit(event)}>
      <LeaveGuard when={unsaved} />
      <Stack spacing={3}>
        <Section title={t('caregiver.details')}>
          <Stack spacing={2} sx={{ maxWidth: 560 }}>
            <TextField
              label={t('caregiver.name')}
              value={name}
              onChange={(event) => setName(event.target.value)}
              error={errors.name !== undefined}
              helperText={errors.name ?? t('caregiver.nameHelp')}
              required
              autoComplete="off"
            />
            <TextField
              label={t('caregiver.license')}
              value={license}
              onChange={(event) => setLicense(event.target.value)}
              error={errors.license_number !== undefined}
              helperText={errors.license_number ?? t('caregiver.licenseHelp')}
              required
              autoComplete="off"
              slotProps={{ htmlInput: { dir: 'ltr' } }}
            />
            <ImageField
              label={t('caregiver.photo')}
              value={image}
              onChange={setImage}
              alt={t('caregiver.photoAlt', { name: name || t('caregiver.newTitle') })}
              error={errors.image ?? null}
            />
            {isNew ? (
              <FormControlLabel
                control={
                  <Switch checked={active} onChange={(event) => setActive(event.target.checked)} />
                }
                label={t('caregiver.active')}
              />
            ) : null}
          </Stack>
        </Section>

        <CaregiverTypesSection
          types={types}
          value={typeIds}
          onChange={setTypeIds}
          error={typesError}
        />

        <Section title={t('caregiver.week')} intro={t('caregiver.weekIntro')}>
          <WeeklyHoursEditor form={schedule} onChange={setSchedule} errors={errors} />
        </Section>

        <Section title={t('exceptions.title')} intro={t('exceptions.intro')}>
          <ExceptionsEditor
            exceptions={schedule.exceptions}
            onChange={(exceptions) => setSchedule({ ...schedule, exceptions })}
            errors={errors}
            today={today}
          />
        </Section>

        <Section title={t('rules.title')} intro={t('rules.intro')}>
          <BookingRulesFields
            value={rules}
            onChange={setRules}
            defaults={clinic.default_marpe_rules}
            errors={errors}
          />
        </Section>

        <CalendarSection
          caregiver={caregiver}
          timeZone={clinic.timezone}
          calendarId={{ ...calendarId.field, error: errors.google_calendar_sync_calendar_id }}
          onDisconnected={calendarId.reset}
        />

        {hasErrors ? <Alert severity="error">{t('common:errors.validation_failed')}</Alert> : null}
        {otherFailure ? <Alert severity="error">{errorText(t, save.error)}</Alert> : null}
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <Button type="submit" variant="contained" loading={save.isPending}>
            {isNew ? t('caregiver.add') : t('common:save')}
          </Button>
          <Button component={RouterLink} to={listPath} disabled={save.isPending}>
            {t('common:cancel')}
          </Button>
        </Stack>
      </Stack>
    </form>
  );
}
