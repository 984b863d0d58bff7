import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  clinicRescheduleBodySchema,
  type IntegrationAppointment,
  type IntegrationCaregiver,
} from '@marpe/shared';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, validate, type FieldErrors } from '../../../lib/field-errors';
import { rescheduleAppointment } from '../api/reschedule-appointment';
import { formatWhen, localParts, toZonedIso, zonedInstant } from '../clinic-time';
import { patientName } from '../diary-events';
import { diaryFieldErrors } from '../time-errors';
import { isWithin, openIntervals } from '../working-hours';
import { BookingOptionsFields, bookingOptionsBody, defaultBookingOptions } from './booking-options';

/** Where a drag dropped the appointment: the dialog only confirms it. */
export interface MoveProposal {
  start: number;
  caregiverId: number;
}

/**
 * Moves an appointment: after a drag, a confirmation saying from where to where; from the
 * details dialog (the keyboard's way), a form of date, time and caregiver. A refusal is said
 * here and the dialog stays open with what was chosen.
 */
export function MoveDialog({
  appointment,
  proposal,
  zone,
  caregivers,
  closedDates,
  onClose,
  onMoved,
}: {
  appointment: IntegrationAppointment | null;
  proposal: MoveProposal | null;
  zone: string;
  caregivers: IntegrationCaregiver[];
  closedDates: ReadonlySet<string>;
  onClose: () => void;
  onMoved: (appointment: IntegrationAppointment) => void;
}) {
  const { t, i18n } = useTranslation('diary');
  const id = useId();
  const open = appointment !== null;

  const outside = (caregiver: number | '', day: string, at: string) => {
    const rules = caregivers.find((c) => c.id === caregiver)?.marpe_rules;
    if (!rules || !day || !at) return false;
    const intervals = openIntervals(rules, [day], zone, closedDates);
    return !isWithin(intervals, zonedInstant(day, at, zone));
  };

  // The page mounts a fresh dialog for each opening: it starts from the appointment and where
  // it was dropped.
  const initial = appointment
    ? {
        ...localParts(proposal ? proposal.start : Date.parse(appointment.start_date), zone),
        caregiver: proposal?.caregiverId ?? appointment.caregiver.id,
      }
    : { date: '', time: '', caregiver: '' as const };
  const [caregiverId, setCaregiverId] = useState<number | ''>(initial.caregiver);
  const [date, setDate] = useState(initial.date);
  const [time, setTime] = useState(initial.time);
  const [options, setOptions] = useState(() => ({
    ...defaultBookingOptions,
    outsideHours: proposal ? outside(initial.caregiver, initial.date, initial.time) : false,
  }));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const offering = caregivers.filter(
    (c) =>
      (c.is_active && c.appointment_type_ids.includes(appointment?.appointment_type.id ?? 0)) ||
      c.id === appointment?.caregiver.id,
  );
  const target = caregivers.find((c) => c.id === caregiverId);
  const warnOutside = outside(caregiverId, date, time);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!appointment) return;
    setFailure(null);
    const body = {
      start_date: date && time ? toZonedIso(zonedInstant(date, time, zone), zone) : '',
      ...(caregiverId !== '' && caregiverId !== appointment.caregiver.id
        ? { caregiver_id: caregiverId }
        : {}),
      ...bookingOptionsBody(options),
    };
    const checked = validate(t, clinicRescheduleBodySchema, body);
    if (checked.errors) {
      setErrors({
        ...checked.errors,
        ...(!date ? { date: t('validation.required', { ns: 'common' }) } : {}),
      });
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      onMoved(await rescheduleAppointment(appointment.id, checked.data));
      onClose();
    } catch (error) {
      const fields = diaryFieldErrors(t, error);
      if (fields) setErrors(fields);
      setFailure(
        // A confirmation after a drag shows no fields: the field's words are the failure's.
        (proposal !== null && (fields?.start_date ?? fields?.caregiver_id)) || errorText(t, error),
      );
    } finally {
      setBusy(false);
    }
  }

  const language = i18n.language;
  const from = appointment
    ? `${formatWhen(appointment.start_date, zone, language)}, ${appointment.caregiver.name}`
    : '';
  const to =
    date && time
      ? `${formatWhen(zonedInstant(date, time, zone), zone, language)}, ${target?.name ?? ''}`
      : '';

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-intro`}
      fullWidth
      maxWidth="sm"
    >
      <form noValidate onSubmit={(e) => void submit(e)}>
        <DialogTitle id={`${id}-title`}>
          {proposal ? t('move.confirmTitle') : t('move.title')}
        </DialogTitle>
        <DialogContent>
          <DialogContentText id={`${id}-intro`} component="div">
            {appointment && proposal ? (
              <>
                <p>
                  {patientName(appointment)}, {appointment.appointment_type.name}
                </p>
                <p>
                  {t('move.from')}: {from}
                </p>
                <p>
                  {t('move.to')}: {to}
                </p>
              </>
            ) : appointment ? (
              t('move.intro', {
                name: patientName(appointment),
                type: appointment.appointment_type.name,
                from,
              })
            ) : null}
          </DialogContentText>
          <Stack spacing={2} sx={{ pt: 2 }}>
            {proposal ? null : (
              <>
                <TextField
                  select
                  label={t('move.caregiver')}
                  value={caregiverId}
                  onChange={(e) => setCaregiverId(Number(e.target.value))}
                  error={Boolean(errors.caregiver_id)}
                  helperText={errors.caregiver_id}
                >
                  {offering.map((c) => (
                    <MenuItem key={c.id} value={c.id}>
                      {c.name}
                    </MenuItem>
                  ))}
                </TextField>
                <Stack direction="row" spacing={2}>
                  <TextField
                    type="date"
                    required
                    label={t('move.date')}
                    value={date}
                    onChange={(e) => setDate(e.target.value)}
                    slotProps={{ inputLabel: { shrink: true } }}
                    error={Boolean(errors.date)}
                    helperText={errors.date}
                    autoFocus
                  />
                  <TextField
                    type="time"
                    required
                    label={t('move.time')}
                    value={time}
                    onChange={(e) => setTime(e.target.value)}
                    slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 300 } }}
                    error={Boolean(errors.start_date)}
                    helperText={errors.start_date}
                  />
                </Stack>
              </>
            )}
            {warnOutside ? <Alert severity="warning">{t('move.outsideWarning')}</Alert> : null}
            <BookingOptionsFields value={options} onChange={setOptions} words="move" />
            {failure ? (
              <Alert severity="error" role="alert">
                {failure}
              </Alert>
            ) : null}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            {t('cancel', { ns: 'common' })}
          </Button>
          <Button type="submit" variant="contained" loading={busy}>
            {t('move.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
