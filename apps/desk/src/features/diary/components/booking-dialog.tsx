import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  clinicBookingBodySchema,
  type IntegrationAppointment,
  type IntegrationAppointmentType,
  type IntegrationCaregiver,
  type IntegrationPatient,
} from '@marpe/shared';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, validate, type FieldErrors } from '../../../lib/field-errors';
import { PatientField } from '../../../lib/patient-field';
import { bookAppointment } from '../api/book-appointment';
import { toZonedIso, zonedInstant } from '../clinic-time';
import { diaryFieldErrors } from '../time-errors';
import { BookingOptionsFields, bookingOptionsBody, defaultBookingOptions } from './booking-options';

export interface BookingPreset {
  caregiverId: number | null;
  date: string;
  time: string;
  /** The patient being booked for (`/diary?patient=`), chosen from the start. */
  patient?: IntegrationPatient | null;
}

const emptyNewPatient = { id_number: '', phone: '', first_name: '', last_name: '' };

/**
 * A phone booking in seconds: caregiver, type (the caregiver's), date and time (from the slot
 * clicked), the patient found as one types or registered, and the options. Checked with the
 * shared schema before it is sent; a refusal (the time taken, the patient booked that day) is
 * said here and every field kept.
 */
export function BookingDialog({
  open,
  preset,
  zone,
  caregivers,
  types,
  onClose,
  onBooked,
}: {
  open: boolean;
  preset: BookingPreset;
  zone: string;
  caregivers: IntegrationCaregiver[];
  types: IntegrationAppointmentType[];
  onClose: () => void;
  onBooked: (appointment: IntegrationAppointment) => void;
}) {
  const { t } = useTranslation('diary');
  const id = useId();
  const active = caregivers.filter((c) => c.is_active);
  // The page mounts a fresh dialog for each opening: it starts from what was clicked.
  const firstCaregiver = preset.caregiverId ?? active[0]?.id ?? '';
  const firstTypes = types.filter((type) =>
    caregivers.find((c) => c.id === firstCaregiver)?.appointment_type_ids.includes(type.id),
  );
  const [caregiverId, setCaregiverId] = useState<number | ''>(firstCaregiver);
  const [typeId, setTypeId] = useState<number | ''>(
    firstTypes.length === 1 ? (firstTypes[0]?.id ?? '') : '',
  );
  const [date, setDate] = useState(preset.date);
  const [time, setTime] = useState(preset.time);
  const [mode, setMode] = useState<'find' | 'new'>('find');
  const [patient, setPatient] = useState<IntegrationPatient | null>(preset.patient ?? null);
  const [newPatient, setNewPatient] = useState(emptyNewPatient);
  const [options, setOptions] = useState(defaultBookingOptions);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const caregiver = caregivers.find((c) => c.id === caregiverId);
  const offeredTypes = types.filter((type) => caregiver?.appointment_type_ids.includes(type.id));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const start = date && time ? toZonedIso(zonedInstant(date, time, zone), zone) : '';
    const body = {
      caregiver_id: caregiverId === '' ? undefined : caregiverId,
      appointment_type_id: typeId === '' ? undefined : typeId,
      start_date: start,
      patient:
        mode === 'new'
          ? newPatient
          : patient
            ? {
                id_number: patient.id_number,
                phone: patient.phone,
                first_name: patient.first_name,
                last_name: patient.last_name,
              }
            : undefined,
      ...bookingOptionsBody(options),
    };
    const checked = validate(t, clinicBookingBodySchema, body);
    if (checked.errors) {
      setErrors({
        ...checked.errors,
        ...(mode === 'find' && !patient ? { patient: t('booking.choosePatient') } : {}),
        ...(!date ? { date: t('validation.required', { ns: 'common' }) } : {}),
        ...(!time ? { start_date: t('validation.required', { ns: 'common' }) } : {}),
      });
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      onBooked(await bookAppointment(checked.data));
      onClose();
    } catch (error) {
      const fields = diaryFieldErrors(t, error);
      if (fields) setErrors(fields);
      setFailure(errorText(t, error));
    } finally {
      setBusy(false);
    }
  }

  const setNew = (field: keyof typeof emptyNewPatient) => (value: string) =>
    setNewPatient((current) => ({ ...current, [field]: value }));

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      aria-labelledby={`${id}-title`}
      fullWidth
      maxWidth="sm"
    >
      <form noValidate onSubmit={(e) => void submit(e)}>
        <DialogTitle id={`${id}-title`}>{t('booking.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                select
                required
                label={t('booking.caregiver')}
                value={caregiverId}
                onChange={(e) => {
                  const next = Number(e.target.value);
                  setCaregiverId(next);
                  const offered = types.filter((type) =>
                    caregivers.find((c) => c.id === next)?.appointment_type_ids.includes(type.id),
                  );
                  if (!offered.some((type) => type.id === typeId)) {
                    setTypeId(offered.length === 1 ? (offered[0]?.id ?? '') : '');
                  }
                }}
                error={Boolean(errors.caregiver_id)}
                helperText={errors.caregiver_id}
              >
                {active.map((c) => (
                  <MenuItem key={c.id} value={c.id}>
                    {c.name}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                select
                required
                label={t('booking.type')}
                value={typeId}
                onChange={(e) => setTypeId(Number(e.target.value))}
                error={Boolean(errors.appointment_type_id) || offeredTypes.length === 0}
                helperText={
                  errors.appointment_type_id ??
                  (caregiver && offeredTypes.length === 0 ? t('booking.noTypes') : undefined)
                }
              >
                {offeredTypes.map((type) => (
                  <MenuItem key={type.id} value={type.id}>
                    {type.name} ({type.duration_minutes}′)
                  </MenuItem>
                ))}
              </TextField>
            </Stack>
            <Stack direction="row" spacing={2}>
              <TextField
                type="date"
                required
                label={t('booking.date')}
                value={date}
                onChange={(e) => setDate(e.target.value)}
                slotProps={{ inputLabel: { shrink: true } }}
                error={Boolean(errors.date)}
                helperText={errors.date}
              />
              <TextField
                type="time"
                required
                label={t('booking.time')}
                value={time}
                onChange={(e) => setTime(e.target.value)}
                slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 300 } }}
                error={Boolean(errors.start_date)}
                helperText={errors.start_date}
              />
            </Stack>

            <Typography variant="h3" component="h3">
              {t('booking.patient')}
            </Typography>
            {mode === 'find' ? (
              <PatientField
                value={patient}
                onChange={setPatient}
                error={errors.patient}
                noResultsText={t('booking.noResults')}
                autoFocus
              />
            ) : (
              <Stack spacing={2}>
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                  <TextField
                    required
                    label={t('booking.firstName')}
                    value={newPatient.first_name}
                    onChange={(e) => setNew('first_name')(e.target.value)}
                    error={Boolean(errors['patient.first_name'])}
                    helperText={errors['patient.first_name']}
                    autoComplete="off"
                  />
                  <TextField
                    required
                    label={t('booking.lastName')}
                    value={newPatient.last_name}
                    onChange={(e) => setNew('last_name')(e.target.value)}
                    error={Boolean(errors['patient.last_name'])}
                    helperText={errors['patient.last_name']}
                    autoComplete="off"
                  />
                </Stack>
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                  <TextField
                    required
                    label={t('booking.idNumber')}
                    value={newPatient.id_number}
                    onChange={(e) => setNew('id_number')(e.target.value)}
                    error={Boolean(errors['patient.id_number'])}
                    helperText={errors['patient.id_number']}
                    slotProps={{ htmlInput: { inputMode: 'numeric', dir: 'ltr' } }}
                    autoComplete="off"
                  />
                  <TextField
                    required
                    type="tel"
                    label={t('booking.phone')}
                    value={newPatient.phone}
                    onChange={(e) => setNew('phone')(e.target.value)}
                    error={Boolean(errors['patient.phone'])}
                    helperText={errors['patient.phone']}
                    slotProps={{ htmlInput: { dir: 'ltr' } }}
                    autoComplete="off"
                  />
                </Stack>
              </Stack>
            )}
            <div>
              <Button
                onClick={() => {
                  setMode(mode === 'find' ? 'new' : 'find');
                  setErrors({});
                }}
              >
                {mode === 'find' ? t('booking.newPatient') : t('booking.findPatient')}
              </Button>
            </div>

            <BookingOptionsFields
              value={options}
              onChange={setOptions}
              words="booking"
              groupLabel={t('booking.options')}
            />
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
            {t('booking.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
