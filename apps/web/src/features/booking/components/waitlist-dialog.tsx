import type { AppointmentType, Caregiver, PartOfDay } from '@marpe/shared';
import {
  daysBetween,
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
import dayjs from 'dayjs';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { formatClinicTime } from '../../../lib/clinic-time';
import { TextField } from '../../../lib/text-field';
import { joinWaitlist } from '../api/join-waitlist';

export interface WaitlistDialogProps {
  open: boolean;
  clinicId: number;
  caregiver: Caregiver;
  /** What to wait for: one type, or the caregiver's types to choose from (a fully booked caregiver). */
  appointmentTypes: readonly AppointmentType[];
  timeZone: string;
  onClose: () => void;
  onJoined: () => void;
}

type FieldError = 'fromDate' | 'toDate' | null;

const addDays = (date: string, days: number) => dayjs(date).add(days, 'day').format('YYYY-MM-DD');

/** "Notify me if a time frees up": a range of at most 14 days from today and a part of day. */
export function WaitlistDialog(props: WaitlistDialogProps) {
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
  const [fromDate, setFromDate] = useState(today);
  const [toDate, setToDate] = useState(() => addDays(today, WAITLIST_MAX_DAYS - 1));
  const [partOfDay, setPartOfDay] = useState<PartOfDay>('any');
  const [fieldError, setFieldError] = useState<FieldError>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  function checkRange(): FieldError {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(fromDate) || fromDate < today) return 'fromDate';
    if (!/^\d{4}-\d{2}-\d{2}$/.test(toDate)) return 'toDate';
    const days = daysBetween(fromDate, toDate);
    return days < 0 || days >= WAITLIST_MAX_DAYS ? 'toDate' : null;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const error = checkRange();
    setFieldError(error);
    setFailure(null);
    if (error || !appointmentType) return;
    setPending(true);
    try {
      await joinWaitlist({
        clinicId,
        caregiverId: caregiver.id,
        appointmentTypeId: appointmentType.id,
        fromDate,
        toDate,
        partOfDay,
      });
      onJoined();
    } catch (caught) {
      const code = caught instanceof ApiError ? caught.code : null;
      const path =
        caught instanceof ApiError
          ? (caught.details as { issues?: { path: string }[] } | undefined)?.issues?.[0]?.path
          : undefined;
      if (path === 'fromDate' || path === 'toDate') setFieldError(path);
      else if (code === 'waitlist_full') {
        setFailure(t('errors.waitlist_full', { max: WAITLIST_MAX_ACTIVE }));
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
            type="date"
            label={t('waitlist.fromDate')}
            value={fromDate}
            onChange={(event) => setFromDate(event.target.value)}
            error={fieldError === 'fromDate'}
            helperText={
              fieldError === 'fromDate'
                ? t('waitlist.errors.fromDate')
                : t('waitlist.rangeHint', { days })
            }
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: today } }}
            required
          />
          <TextField
            type="date"
            label={t('waitlist.toDate')}
            value={toDate}
            onChange={(event) => setToDate(event.target.value)}
            error={fieldError === 'toDate'}
            helperText={fieldError === 'toDate' ? t('waitlist.errors.toDate', { days }) : undefined}
            slotProps={{
              inputLabel: { shrink: true },
              htmlInput: { min: fromDate, max: addDays(fromDate, days - 1) },
            }}
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
