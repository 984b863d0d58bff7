import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { CreatedPaymentRequest, IntegrationPatient } from '@marpe/shared';
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, serverFieldErrors, type FieldErrors } from '../../../lib/field-errors';
import { useClinicDates } from '../../../lib/clinic-dates';
import { formatPhone } from '../../../lib/format';
import { useNotify } from '../../../lib/notify';
import { PatientField } from '../../../lib/patient-field';
import { createPaymentRequest } from '../api/payment-requests';
import {
  checkPaymentForm,
  emptyPaymentForm,
  MAX_EXPIRY_DAYS,
  MAX_PURPOSE_LENGTH,
  parseShekels,
  paymentFormErrors,
  shekels,
  type PaymentForm,
} from '../payment-form';
import { CopyField } from '../../../lib/copy-field';

/**
 * Makes a payment request: the patient (preselected when the page was opened for one), the sum,
 * what it is for, instalments and expiry; the link goes to the patient's mobile, or is shown this
 * once to copy. What was typed stays when the call fails.
 */
export function RequestDialog({
  open,
  onClose,
  onCreated,
  initialPatient,
  patientNote,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: () => void;
  /** The patient the page was opened for (`?send=`), once found. */
  initialPatient: IntegrationPatient | null;
  /** Said above the patient field while that patient loads, or when none was found. */
  patientNote?: string | null;
}) {
  const { t } = useTranslation('payments');
  const id = useId();
  const notify = useNotify();
  const [form, setForm] = useState<PaymentForm>(() => emptyPaymentForm(initialPatient));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [created, setCreated] = useState<CreatedPaymentRequest | null>(null);
  const create = useMutation({ mutationFn: createPaymentRequest });

  // The patient the page was opened for arrives after the dialog: taken unless one was chosen.
  const [arrived, setArrived] = useState(initialPatient);
  if (initialPatient !== arrived) {
    setArrived(initialPatient);
    if (initialPatient && !form.patient) setForm({ ...form, patient: initialPatient });
  }

  const set = <K extends keyof PaymentForm>(key: K, value: PaymentForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));

  function reset() {
    setForm(emptyPaymentForm(null));
    setErrors({});
    setCreated(null);
    create.reset();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = checkPaymentForm(t, form);
    if (checked.errors) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    try {
      const request = await create.mutateAsync(checked.body);
      setCreated(request);
      notify(
        t(checked.body.send_to_phone ? 'created.notified' : 'created.notifiedCopy', {
          amount: shekels(request.amount),
        }),
      );
      onCreated();
    } catch (failure) {
      // A 400 names its fields: said at each; anything else below the form. The typed values stay.
      const fields = serverFieldErrors(t, failure);
      const amount = parseShekels(form.amount);
      setErrors(
        fields
          ? paymentFormErrors(t, fields, Number.isFinite(amount) ? Math.round(amount * 100) : null)
          : {},
      );
    }
  }

  const formFailure =
    errors.form ??
    (create.isError && serverFieldErrors(t, create.error) === null
      ? errorText(t, create.error)
      : null);

  const helpId = (field: string) => `${id}-${field}-help`;

  return (
    <Dialog
      open={open}
      onClose={create.isPending ? undefined : onClose}
      aria-labelledby={`${id}-title`}
      maxWidth="sm"
      fullWidth
      slotProps={{ transition: { onExited: reset } }}
    >
      {created ? (
        <CreatedRequest
          request={created}
          sentTo={form.send && form.patient ? form.patient.phone : null}
          name={form.patient ? `${form.patient.first_name} ${form.patient.last_name}` : ''}
          titleId={`${id}-title`}
          onClose={onClose}
        />
      ) : (
        <form noValidate onSubmit={(e) => void submit(e)}>
          <DialogTitle id={`${id}-title`}>{t('form.title')}</DialogTitle>
          <DialogContent>
            <Stack spacing={2}>
              <Typography>{t('form.intro')}</Typography>
              {patientNote && !form.patient ? <Alert severity="info">{patientNote}</Alert> : null}
              <PatientField
                value={form.patient}
                onChange={(patient) => set('patient', patient)}
                error={errors.patient}
                autoFocus={!initialPatient}
              />
              <TextField
                label={t('form.amount')}
                value={form.amount}
                onChange={(e) => set('amount', e.target.value)}
                error={errors.amount !== undefined}
                helperText={errors.amount ?? t('form.amountHelp')}
                autoComplete="off"
                required
                autoFocus={Boolean(initialPatient)}
                slotProps={{ htmlInput: { dir: 'ltr', inputMode: 'decimal' } }}
              />
              <TextField
                label={t('form.purpose')}
                value={form.purpose}
                onChange={(e) => set('purpose', e.target.value)}
                error={errors.purpose !== undefined}
                helperText={errors.purpose ?? t('form.purposeHelp')}
                autoComplete="off"
                slotProps={{ htmlInput: { maxLength: MAX_PURPOSE_LENGTH } }}
              />
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} useFlexGap>
                <TextField
                  label={t('form.maxPayments')}
                  value={form.maxPayments}
                  onChange={(e) => set('maxPayments', e.target.value)}
                  error={errors.maxPayments !== undefined}
                  helperText={errors.maxPayments ?? t('form.maxPaymentsHelp')}
                  type="number"
                  slotProps={{ htmlInput: { min: 1, max: 36, step: 1, dir: 'ltr' } }}
                  sx={{ flex: 1 }}
                />
                <TextField
                  label={t('form.expires')}
                  value={form.expiresInDays}
                  onChange={(e) => set('expiresInDays', e.target.value)}
                  error={errors.expiresInDays !== undefined}
                  helperText={errors.expiresInDays ?? t('form.expiresHelp')}
                  type="number"
                  slotProps={{ htmlInput: { min: 1, max: MAX_EXPIRY_DAYS, step: 1, dir: 'ltr' } }}
                  sx={{ flex: 1 }}
                />
              </Stack>
              <TextField
                label={t('form.description')}
                value={form.description}
                onChange={(e) => set('description', e.target.value)}
                error={errors.description !== undefined}
                helperText={errors.description ?? t('form.descriptionHelp')}
                autoComplete="off"
              />
              <div>
                <FormControlLabel
                  control={
                    <Checkbox
                      checked={form.send}
                      onChange={(e) => set('send', e.target.checked)}
                      slotProps={{
                        input: {
                          'aria-describedby': helpId('send'),
                          'aria-invalid': errors.send !== undefined,
                        },
                      }}
                    />
                  }
                  label={
                    form.patient
                      ? t('form.sendTo', { phone: formatPhone(form.patient.phone) })
                      : t('form.send')
                  }
                />
                <FormHelperText
                  id={helpId('send')}
                  error={errors.send !== undefined}
                  sx={{ mt: 0 }}
                >
                  {errors.send ?? t('form.sendHelp')}
                </FormHelperText>
              </div>
              {formFailure ? <Alert severity="error">{formFailure}</Alert> : null}
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose} disabled={create.isPending}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" variant="contained" loading={create.isPending}>
              {t('form.submit')}
            </Button>
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
}

function CreatedRequest({
  request,
  sentTo,
  name,
  titleId,
  onClose,
}: {
  request: CreatedPaymentRequest;
  sentTo: string | null;
  name: string;
  titleId: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('payments');
  const amount = shekels(request.amount);

  const until = useClinicDates().longDayAndTime(request.expires_at);

  return (
    <>
      <DialogTitle id={titleId}>{t('created.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Alert severity={sentTo ? 'success' : 'info'}>
            {sentTo
              ? t('created.sent', { amount, phone: formatPhone(sentTo) })
              : t('created.notSent', { amount, name })}
          </Alert>
          <CopyField
            label={t('created.link')}
            value={request.url}
            helperText={t('created.once')}
            texts={{
              copy: t('created.copy'),
              copied: t('created.copied'),
              failed: t('created.copyFailed'),
            }}
            fullWidth
          />
          <Typography>{t('created.until', { date: until })}</Typography>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {t('created.done')}
        </Button>
      </DialogActions>
    </>
  );
}
