import EventBusyIcon from '../../lib/icons/event-busy';
import WarningAmberIcon from '../../lib/icons/warning-amber';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { createClosureBodySchema, type Closure, type HolidaySuggestion } from '@marpe/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api';
import { ConfirmDialog } from '../../lib/confirm-dialog';
import { errorText, serverFieldErrors, validate, type FieldErrors } from '../../lib/field-errors';
import { localeOf } from '../../lib/format';
import { useNotify } from '../../lib/notify';
import { PageLoading } from '../../lib/page-loading';
import { setupChecklistQueryKey } from '../../lib/setup-checklist';
import {
  closuresQueryKey,
  createClosure,
  deleteClosure,
  holidaysQueryKey,
  listClosures,
  listHolidaySuggestions,
} from './api/closures';
import { StepPage } from '../../lib/setup-step';
import { Section } from '../../lib/section';

/** Today's date here, YYYY-MM-DD (the clinic's staff work in its time zone). */
function todayHere(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** A date as people read it: "Thursday, 22 April 2027". */
function useLongDate() {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(localeOf(i18n.language), {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
  return (date: string) => format.format(new Date(`${date}T00:00:00Z`));
}

/** `/desk/setup/closures`: dates the whole clinic is closed, and the year's holidays to add. */
export function ClosuresPage() {
  const { t } = useTranslation('setup');
  const closures = useQuery({ queryKey: closuresQueryKey, queryFn: listClosures });
  return (
    <StepPage step="closures">
      <Typography sx={{ mb: 2 }}>{t('closures.intro')}</Typography>
      {closures.isError ? <Alert severity="error">{errorText(t, closures.error)}</Alert> : null}
      {closures.data ? (
        <Stack spacing={3}>
          <UpcomingClosures closures={closures.data} />
          <AddClosure />
          <Holidays closures={closures.data} />
        </Stack>
      ) : closures.isPending ? (
        <PageLoading />
      ) : null}
    </StepPage>
  );
}

function useClosuresChanged() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: closuresQueryKey });
    void queryClient.invalidateQueries({ queryKey: setupChecklistQueryKey });
  };
}

function UpcomingClosures({ closures }: { closures: Closure[] }) {
  const { t } = useTranslation('setup');
  const longDate = useLongDate();
  const notify = useNotify();
  const changed = useClosuresChanged();
  const [removing, setRemoving] = useState<Closure | null>(null);
  return (
    <Section title={t('closures.upcoming')}>
      {closures.length === 0 ? (
        <Typography>{t('closures.none')}</Typography>
      ) : (
        <List disablePadding>
          {closures.map((closure) => (
            <ListItem
              key={closure.id}
              divider
              disableGutters
              sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }}
            >
              <EventBusyIcon color="action" aria-hidden sx={{ marginInlineEnd: 1 }} />
              <ListItemText
                sx={{ flex: '1 1 240px' }}
                primary={longDate(closure.date)}
                secondary={
                  <>
                    {closure.note ? <span>{closure.note}</span> : null}
                    {closure.booked_appointments > 0 ? (
                      <Typography
                        component="span"
                        variant="body2"
                        sx={{ display: 'flex', gap: 0.5, color: 'warning.main', fontWeight: 500 }}
                      >
                        <WarningAmberIcon fontSize="small" aria-hidden />
                        {t('closures.booked', { count: closure.booked_appointments })}
                      </Typography>
                    ) : null}
                  </>
                }
                slotProps={{ secondary: { component: 'div' } }}
              />
              <Button color="error" onClick={() => setRemoving(closure)}>
                {t('closures.remove')}
                <span className="visually-hidden"> {longDate(closure.date)}</span>
              </Button>
            </ListItem>
          ))}
        </List>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={t('closures.removeTitle', { date: removing ? longDate(removing.date) : '' })}
        body={t('closures.removeBody')}
        confirmLabel={t('closures.remove')}
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          if (!removing) return;
          await deleteClosure(removing.id);
          changed();
          notify(t('closures.removed', { date: longDate(removing.date) }));
        }}
      />
    </Section>
  );
}

function AddClosure() {
  const { t } = useTranslation('setup');
  const longDate = useLongDate();
  const notify = useNotify();
  const changed = useClosuresChanged();
  const [date, setDate] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const add = useMutation({ mutationFn: createClosure });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    const checked = validate(t, createClosureBodySchema, {
      date,
      note: note.trim() === '' ? null : note,
    });
    if (checked.errors) {
      setErrors(
        date === '' ? { ...checked.errors, date: t('common:validation.required') } : checked.errors,
      );
      return;
    }
    if (checked.data.date < todayHere()) {
      setErrors({ date: t('closures.past') });
      return;
    }
    try {
      const closure = await add.mutateAsync(checked.data);
      changed();
      notify(t('closures.added', { date: longDate(closure.date) }));
      setDate('');
      setNote('');
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 409) {
        setErrors({ date: t('closures.duplicate') });
        add.reset();
        return;
      }
      const fields = serverFieldErrors(t, failure);
      if (fields) {
        const past =
          failure instanceof ApiError && failure.issues.some((i) => /passed/.test(i.message));
        setErrors(past ? { ...fields, date: t('closures.past') } : fields);
        add.reset();
      }
    }
  }

  return (
    <Section title={t('closures.addTitle')}>
      <form noValidate onSubmit={(e) => void submit(e)}>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          useFlexGap
          sx={{ alignItems: 'flex-start' }}
        >
          <TextField
            type="date"
            label={t('closures.date')}
            value={date}
            onChange={(e) => setDate(e.target.value)}
            required
            error={errors.date !== undefined}
            helperText={errors.date}
            sx={{ maxWidth: { sm: 220 } }}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: todayHere() } }}
          />
          <TextField
            label={t('closures.note')}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            error={errors.note !== undefined}
            helperText={errors.note ?? t('closures.noteHelp')}
          />
          <Button
            type="submit"
            variant="contained"
            loading={add.isPending}
            sx={{ mt: 1, flexShrink: 0 }}
          >
            {t('closures.add')}
          </Button>
        </Stack>
        {add.isError ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorText(t, add.error)}
          </Alert>
        ) : null}
      </form>
    </Section>
  );
}

function Holidays({ closures }: { closures: Closure[] }) {
  const { t, i18n } = useTranslation('setup');
  const longDate = useLongDate();
  const notify = useNotify();
  const changed = useClosuresChanged();
  const thisYear = new Date().getFullYear();
  const [year, setYear] = useState(thisYear);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const listId = useId();
  const suggestions = useQuery({
    queryKey: holidaysQueryKey(year),
    queryFn: () => listHolidaySuggestions(year),
    staleTime: Infinity,
  });
  const closed = new Set(closures.map((c) => c.date));
  const today = todayHere();
  const available = (h: HolidaySuggestion) => h.date >= today && !closed.has(h.date);
  const nameOf = (h: HolidaySuggestion) => (i18n.language === 'en' ? h.name_en : h.name_he);

  async function addChosen() {
    setProblem(null);
    const dates = (suggestions.data ?? []).filter((h) => chosen.has(h.date) && available(h));
    if (dates.length === 0) {
      setProblem(t('closures.chooseHolidays'));
      return;
    }
    setBusy(true);
    let added = 0;
    try {
      for (const holiday of dates) {
        try {
          await createClosure({ date: holiday.date, note: nameOf(holiday) });
          added += 1;
        } catch (failure) {
          // Closed meanwhile (another tab, a colleague): nothing to add.
          if (!(failure instanceof ApiError && failure.status === 409)) throw failure;
        }
      }
      setChosen(new Set());
      notify(t('closures.holidaysAdded', { count: added }));
    } catch (failure) {
      setProblem(errorText(t, failure));
    } finally {
      setBusy(false);
      changed();
    }
  }

  return (
    <Section title={t('closures.holidays')}>
      <Typography sx={{ mb: 2 }}>{t('closures.holidaysIntro')}</Typography>
      <TextField
        select
        label={t('closures.year')}
        value={year}
        onChange={(e) => {
          setYear(Number(e.target.value));
          setChosen(new Set());
        }}
        sx={{ maxWidth: 160, mb: 2 }}
      >
        {[thisYear, thisYear + 1].map((y) => (
          <MenuItem key={y} value={y}>
            {y}
          </MenuItem>
        ))}
      </TextField>
      {suggestions.isError ? (
        <Alert severity="error">{errorText(t, suggestions.error)}</Alert>
      ) : null}
      {suggestions.data ? (
        <>
          <Typography id={listId} variant="h3" sx={{ mb: 1 }}>
            {t('closures.holidaysList', { year })}
          </Typography>
          <Stack role="group" aria-labelledby={listId} sx={{ mb: 2 }}>
            {suggestions.data.map((holiday) => {
              const isClosed = closed.has(holiday.date);
              const isPast = holiday.date < today;
              return (
                <FormControlLabel
                  key={holiday.date}
                  disabled={isClosed || isPast}
                  control={
                    <Checkbox
                      checked={isClosed || chosen.has(holiday.date)}
                      onChange={(e) =>
                        setChosen((set) => {
                          const next = new Set(set);
                          if (e.target.checked) next.add(holiday.date);
                          else next.delete(holiday.date);
                          return next;
                        })
                      }
                    />
                  }
                  label={
                    <span>
                      {nameOf(holiday)} · {longDate(holiday.date)}
                      {isClosed
                        ? ` · ${t('closures.alreadyClosed')}`
                        : isPast
                          ? ` · ${t('closures.pastHoliday')}`
                          : ''}
                    </span>
                  }
                />
              );
            })}
          </Stack>
          <Button variant="outlined" onClick={() => void addChosen()} loading={busy}>
            {t('closures.addHolidays', { count: chosen.size })}
          </Button>
          {problem ? (
            <Alert severity="error" sx={{ mt: 2 }}>
              {problem}
            </Alert>
          ) : null}
        </>
      ) : suggestions.isPending ? (
        <PageLoading />
      ) : null}
    </Section>
  );
}
