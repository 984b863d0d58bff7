import type { AppointmentType, Caregiver, PartOfDay, WaitlistEntry } from '@marpe/shared';
import {
  daysBetween,
  parseDayMonthYear,
  partsOfDay,
  WAITLIST_MAX_ACTIVE,
  WAITLIST_MAX_DAYS,
} from '@marpe/shared/rules';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { addCalendarDays, formatClinicTime, shortDate } from '../../../lib/clinic-time';
import { TextField } from '../../../lib/text-field';
import { joinWaitlist } from '../api/join-waitlist';

export interface JoinWaitlistDialogProps {
  open: boolean;
  clinicId: number;
  caregiver: Caregiver;
  /** What to wait for: one type, or the caregiver's types to choose from (a fully booked caregiver). */
  appointmentTypes: readonly AppointmentType[];
  timeZone: string;
  onClose: () => void;
  /** Joined: the entry, so the page stops offering to join for the same thing. */
  onJoined: (entry: WaitlistEntry) => void;
}

type FieldError = 'fromDate' | 'toDate' | null;

/** `YYYY-MM-DD` as the patient reads and types it: the pages' one date format, whatever the device. */
export function toDayMonthYear(date: string): string {
  return shortDate(date);
}

/**
 * What the patient typed (DD.MM.YYYY; slashes, dashes or one-digit days and months too) as
 * `YYYY-MM-DD`, or null when it is no calendar date.
 */
export function fromDayMonthYear(text: string): string | null {
  const match = /^\s*(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})\s*$/.exec(text);
  if (!match) return null;
  const [, d = '', m = '', y = ''] = match;
  // 31/02 is no date (the rule for typed dates, leap years honoured: docs/forms.md#validations).
  return parseDayMonthYear(`${d.padStart(2, '0')}/${m.padStart(2, '0')}/${y}`)
    ? `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`
    : null;
}

/** "Notify me if a time frees up": a range of at most 14 days from today and a part of day. */
export function JoinWaitlistDialog(props: JoinWaitlistDialogProps) {
  const { open, clinicId, caregiver, appointmentTypes, timeZone, onClose, onJoined } = props;
  const { t } = useTranslation();
  const titleId = useId();
  const partId = useId();
  const typeId = useId();
  const [chosenTypeId, setChosenTypeId] = useState(appointmentTypes[0]?.id ?? null);
  const appointmentType =
    appointmentTypes.find((type) => type.id === chosenTypeId) ?? appointmentTypes[0];
  const [today] = useState(() =>
    formatClinicTime(new Date().toISOString(), timeZone, 'YYYY-MM-DD'),
  );
  // Text fields, not <input type="date">: a date input shows the device's format (MM/DD/YYYY on
  // an American phone), and the app's dates read one way everywhere (docs/formats.md).
  const dateInput = { placeholder: t('waitlist.datePlaceholder'), autoComplete: 'off' };
  const [fromText, setFromText] = useState(() => toDayMonthYear(today));
  const [toText, setToText] = useState(() =>
    toDayMonthYear(addCalendarDays(today, WAITLIST_MAX_DAYS - 1)),
  );
  const fromDate = fromDayMonthYear(fromText);
  const toDate = fromDayMonthYear(toText);
  const [partOfDay, setPartOfDay] = useState<PartOfDay>('any');
  const [fieldError, setFieldError] = useState<FieldError>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  function checkRange(): FieldError {
    if (fromDate === null || fromDate < today) return 'fromDate';
    if (toDate === null) return 'toDate';
    const days = daysBetween(fromDate, toDate);
    return days < 0 || days >= WAITLIST_MAX_DAYS ? 'toDate' : null;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const error = checkRange();
    setFieldError(error);
    setFailure(null);
    if (error || !appointmentType || fromDate === null || toDate === null) return;
    setPending(true);
    try {
      const entry = await joinWaitlist({
        clinicId,
        caregiverId: caregiver.id,
        appointmentTypeId: appointmentType.id,
        fromDate,
        toDate,
        partOfDay,
      });
      onJoined(entry);
    } catch (caught) {
      const code = caught instanceof ApiError ? caught.code : null;
      const path =
        caught instanceof ApiError
          ? (caught.details as { issues?: { path: string }[] } | undefined)?.issues?.[0]?.path
          : undefined;
      if (path === 'fromDate' || path === 'toDate') setFieldError(path);
      else if (code === 'waitlist_full') {
        setFailure(t('errors.waitlist_full', { count: WAITLIST_MAX_ACTIVE }));
      } else setFailure(t('waitlist.errors.failed'));
    } finally {
      setPending(false);
    }
  }

  const days = WAITLIST_MAX_DAYS;
  return (
    <Dialog
      open={open}
      onClose={() => {
        if (!pending) onClose();
      }}
      aria-labelledby={titleId}
      maxWidth="xs"
      fullWidth
    >
      <form noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id={titleId}>{t('waitlist.dialogTitle')}</DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <DialogContentText>
            {appointmentTypes.length === 1 && appointmentType
              ? t('waitlist.dialogIntro', { caregiver: caregiver.name, type: appointmentType.name })
              : t('waitlist.dialogIntroAnyType', { caregiver: caregiver.name })}
          </DialogContentText>
          {appointmentTypes.length > 1 && (
            <FormControl>
              <FormLabel id={typeId}>{t('waitlist.appointmentType')}</FormLabel>
              <RadioGroup
                aria-labelledby={typeId}
                value={String(appointmentType?.id ?? '')}
                onChange={(event) => setChosenTypeId(Number(event.target.value))}
              >
                {appointmentTypes.map((type) => (
                  <FormControlLabel
                    key={type.id}
                    value={String(type.id)}
                    control={<Radio />}
                    label={<bdi>{type.name}</bdi>}
                  />
                ))}
              </RadioGroup>
            </FormControl>
          )}
          <TextField
            label={t('waitlist.fromDate')}
            value={fromText}
            onChange={(event) => setFromText(event.target.value)}
            error={fieldError === 'fromDate'}
            helperText={
              fieldError === 'fromDate'
                ? t('waitlist.errors.fromDate')
                : t('waitlist.rangeHint', { count: days })
            }
            slotProps={{ inputLabel: { shrink: true }, htmlInput: dateInput }}
            required
          />
          <TextField
            label={t('waitlist.toDate')}
            value={toText}
            onChange={(event) => setToText(event.target.value)}
            error={fieldError === 'toDate'}
            helperText={
              fieldError === 'toDate'
                ? t('waitlist.errors.toDate', { count: days })
                : t('waitlist.dateFormat')
            }
            slotProps={{ inputLabel: { shrink: true }, htmlInput: dateInput }}
            required
          />
          <FormControl>
            <FormLabel id={partId}>{t('waitlist.partOfDay')}</FormLabel>
            <RadioGroup
              aria-labelledby={partId}
              value={partOfDay}
              onChange={(event) => setPartOfDay(event.target.value as PartOfDay)}
            >
              {partsOfDay.map((part) => (
                <FormControlLabel
                  key={part}
                  value={part}
                  control={<Radio />}
                  label={t(`waitlist.parts.${part}`)}
                />
              ))}
            </RadioGroup>
          </FormControl>
          {failure && (
            <Alert severity="error" role="alert">
              {failure}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={pending}>
            {t('waitlist.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={pending}>
            {t('waitlist.join')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
