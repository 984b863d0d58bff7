import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  createFormRequestBodySchema,
  FORM_LINK_DEFAULT_DAYS,
  FORM_LINK_MAX_DAYS,
  type CreatedFormRequest,
  type IntegrationPatient,
} from '@marpe/shared';
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api';
import {
  errorText,
  serverFieldErrors,
  validate,
  type FieldErrors,
} from '../../../lib/field-errors';
import { useNotify } from '../../../lib/notify';
import { PatientField } from '../../../lib/patient-field';
import { createFormRequest } from '../api/form-requests';
import { useFormTemplates } from '../api/form-templates';
import { usePatientByIdNumber } from '../api/patient-lookup';
import { DeliveryChoice, type Delivery } from './delivery-choice';
import { LinkResult } from './link-result';

/**
 * Sends one of the clinic's forms to a patient: the patient (found as one types, or the one the
 * page was opened for), the form, how long the link works, and whether it goes to the patient's
 * phone by the clinic's channel or is only shown to copy. The link is then shown this once.
 */
export function SendFormDialog({
  open,
  initialIdNumber,
  onClose,
  onSent,
}: {
  open: boolean;
  /** The patient to start with (`/forms?send=<idNumber>`). */
  initialIdNumber: string | null;
  onClose: () => void;
  onSent: () => void;
}) {
  const { t } = useTranslation('forms');
  const id = useId();
  const notify = useNotify();
  const templates = useFormTemplates(open);
  const preset = usePatientByIdNumber(open ? initialIdNumber : null);
  /** The patient chosen in the field; until then, the one the page was opened for. */
  const [chosen, setChosen] = useState<IntegrationPatient | null>(null);
  const [touched, setTouched] = useState(false);
  const [templateChosen, setTemplateId] = useState('');
  const [days, setDays] = useState(String(FORM_LINK_DEFAULT_DAYS));
  const [delivery, setDelivery] = useState<Delivery>('send');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [created, setCreated] = useState<{ link: CreatedFormRequest; phone: string } | null>(null);
  const create = useMutation({ mutationFn: createFormRequest });

  const patient = touched ? chosen : (preset.data ?? null);
  // The only form is the one to send.
  const list = templates.data ?? [];
  const onlyTemplate = list.length === 1 ? list[0] : undefined;
  const templateId = templateChosen || (onlyTemplate ? String(onlyTemplate.id) : '');

  function reset() {
    setChosen(null);
    setTouched(false);
    setTemplateId('');
    setDays(String(FORM_LINK_DEFAULT_DAYS));
    setDelivery('send');
    setErrors({});
    setCreated(null);
    create.reset();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: FieldErrors = {};
    if (!patient) found.patient = t('send.patientRequired');
    if (templateId === '') found.template_id = t('send.templateRequired');
    const body = {
      template_id: Number(templateId),
      expires_in_days: days.trim() === '' ? Number.NaN : Number(days),
      ...(patient ? { patient_id_number: patient.id_number } : {}),
      ...(patient && delivery === 'send' ? { send_to_phone: patient.phone } : {}),
    };
    const checked = validate(t, createFormRequestBodySchema, body);
    const all = { ...(checked.errors ?? {}), ...found };
    if (Object.keys(all).length > 0 || !patient) {
      setErrors(all);
      return;
    }
    setErrors({});
    try {
      const link = await create.mutateAsync(body);
      setCreated({ link, phone: patient.phone });
      const form = list.find((x) => x.id === body.template_id)?.name ?? '';
      const name = `${patient.first_name} ${patient.last_name}`;
      notify(t(link.sent_by ? 'created.snackSent' : 'created.snackLink', { form, name }));
      onSent();
    } catch (failure) {
      // A 400 names its fields; an unknown patient is said at the patient; the rest below.
      const fields = serverFieldErrors(t, failure) ?? {};
      if (failure instanceof ApiError && failure.code === 'patient_not_found') {
        fields.patient = errorText(t, failure);
      }
      if (fields.patient_id_number) fields.patient = fields.patient_id_number;
      setErrors(fields);
    }
  }

  const failure =
    create.isError &&
    serverFieldErrors(t, create.error) === null &&
    !(create.error instanceof ApiError && create.error.code === 'patient_not_found')
      ? errorText(t, create.error)
      : null;
  const presetMissing =
    initialIdNumber !== null && !touched && preset.isSuccess && preset.data === null;

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
        <LinkResult
          link={created.link}
          phone={created.phone}
          replaced={false}
          titleId={`${id}-title`}
          onClose={onClose}
        />
      ) : (
        <form noValidate onSubmit={(e) => void submit(e)}>
          <DialogTitle id={`${id}-title`}>{t('send.title')}</DialogTitle>
          <DialogContent>
            <Stack spacing={2} sx={{ pt: 1 }}>
              {presetMissing ? (
                <Alert severity="warning">
                  {t('send.patientNotFound', { idNumber: initialIdNumber })}
                </Alert>
              ) : null}
              <PatientField
                value={patient}
                onChange={(next) => {
                  setTouched(true);
                  setChosen(next);
                }}
                error={errors.patient ?? errors.send_to_phone}
                autoFocus={initialIdNumber === null}
              />
              {templates.isSuccess && list.length === 0 ? (
                <Alert severity="info">{t('send.noTemplates')}</Alert>
              ) : (
                <TextField
                  select
                  label={t('send.template')}
                  value={templateId}
                  onChange={(e) => setTemplateId(e.target.value)}
                  error={errors.template_id !== undefined}
                  helperText={errors.template_id ?? ' '}
                  required
                  slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
                >
                  <option value="" disabled>
                    {templates.isPending ? t('common:loading') : ''}
                  </option>
                  {list.map((template) => (
                    <option key={template.id} value={template.id}>
                      {template.name}
                    </option>
                  ))}
                </TextField>
              )}
              <TextField
                label={t('send.days')}
                value={days}
                onChange={(e) => setDays(e.target.value)}
                type="number"
                error={errors.expires_in_days !== undefined}
                helperText={errors.expires_in_days ?? t('send.daysHelp')}
                slotProps={{ htmlInput: { min: 1, max: FORM_LINK_MAX_DAYS, inputMode: 'numeric' } }}
                sx={{ maxWidth: 240 }}
              />
              <DeliveryChoice
                value={delivery}
                onChange={setDelivery}
                phone={patient?.phone ?? null}
              />
              <Typography variant="body2" color="text.secondary">
                {t('send.prefill')}
              </Typography>
              {failure ? <Alert severity="error">{failure}</Alert> : null}
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose} disabled={create.isPending}>
              {t('common:cancel')}
            </Button>
            <Button
              type="submit"
              variant="contained"
              loading={create.isPending}
              disabled={templates.isSuccess && list.length === 0}
            >
              {delivery === 'send' ? t('send.submit') : t('send.submitCopy')}
            </Button>
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
}
