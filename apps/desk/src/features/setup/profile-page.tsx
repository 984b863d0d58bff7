import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  updateClinicBodySchema,
  type IntegrationClinic,
  type UpdateClinicBody,
} from '@marpe/shared';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, validate } from '../../lib/field-errors';
import { ImageField } from '../../lib/image-field';
import { PageLoading } from '../../lib/page-loading';
import { SaveBar } from './components/save-bar';
import { StepPage } from '../../lib/setup-step';
import { useClinicForm, useClinicQuery } from './components/use-clinic-form';

/** `/desk/setup/profile`: the clinic's name, logo, address, phone and about text. */
export function ProfilePage() {
  const { t } = useTranslation('setup');
  const clinic = useClinicQuery();
  return (
    <StepPage step="profile">
      {clinic.isError ? <Alert severity="error">{errorText(t, clinic.error)}</Alert> : null}
      {clinic.data ? (
        <ProfileForm clinic={clinic.data} />
      ) : clinic.isPending ? (
        <PageLoading />
      ) : null}
    </StepPage>
  );
}

function ProfileForm({ clinic }: { clinic: IntegrationClinic }) {
  const { t } = useTranslation('setup');
  const addressId = useId();
  const form = useClinicForm('profile');
  const [values, setValues] = useState({
    name: clinic.name,
    phone: clinic.phone,
    email: clinic.email ?? '',
    street: clinic.address.street,
    homeNumber: clinic.address.home_number,
    city: clinic.address.city,
    description: clinic.description,
    logoUrl: clinic.logo_url,
  });
  const set = (field: keyof typeof values) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const body: UpdateClinicBody = {
      name: values.name,
      phone: values.phone,
      email: values.email.trim() === '' ? null : values.email.trim(),
      address: { street: values.street, home_number: values.homeNumber, city: values.city },
      description: values.description,
      logo_url: values.logoUrl,
    };
    const checked = validate(t, updateClinicBodySchema, body);
    if (checked.errors) {
      form.setErrors(checked.errors);
      return;
    }
    await form.save(checked.data);
  }

  const field = (name: string) => ({
    error: form.errors[name] !== undefined,
    helperText: form.errors[name],
  });
  const invalid = Object.keys(form.errors).length > 0;

  return (
    <form noValidate onSubmit={(e) => void submit(e)}>
      <Stack spacing={3}>
        <Paper sx={{ p: 3 }}>
          <Stack spacing={2}>
            <TextField
              label={t('profile.name')}
              value={values.name}
              onChange={set('name')}
              required
              {...field('name')}
            />
            <TextField
              label={t('profile.phone')}
              value={values.phone}
              onChange={set('phone')}
              required
              type="tel"
              slotProps={{ htmlInput: { dir: 'ltr' } }}
              {...field('phone')}
              helperText={form.errors.phone ?? t('profile.phoneHelp')}
            />
            <TextField
              label={t('profile.email')}
              value={values.email}
              onChange={set('email')}
              type="email"
              slotProps={{ htmlInput: { dir: 'ltr' } }}
              {...field('email')}
            />
          </Stack>
        </Paper>

        <Paper component="fieldset" sx={{ p: 3, border: 0, m: 0 }} aria-labelledby={addressId}>
          <Typography id={addressId} variant="h2" sx={{ mb: 2 }}>
            {t('profile.address')}
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} useFlexGap>
            <TextField
              label={t('profile.street')}
              value={values.street}
              onChange={set('street')}
              required
              sx={{ flex: 3 }}
              {...field('address.street')}
            />
            <TextField
              label={t('profile.homeNumber')}
              value={values.homeNumber}
              onChange={set('homeNumber')}
              required
              sx={{ flex: 1 }}
              {...field('address.home_number')}
            />
            <TextField
              label={t('profile.city')}
              value={values.city}
              onChange={set('city')}
              required
              sx={{ flex: 2 }}
              {...field('address.city')}
            />
          </Stack>
        </Paper>

        <Paper sx={{ p: 3 }}>
          <Stack spacing={3}>
            <ImageField
              label={t('profile.logo')}
              value={values.logoUrl}
              onChange={(url) => setValues((v) => ({ ...v, logoUrl: url }))}
              alt={t('profile.logoAlt', { name: values.name })}
              error={form.errors.logo_url}
            />
            <TextField
              label={t('profile.description')}
              value={values.description}
              onChange={set('description')}
              multiline
              minRows={4}
              {...field('description')}
              helperText={form.errors.description ?? t('profile.descriptionHelp')}
            />
          </Stack>
        </Paper>
      </Stack>
      <SaveBar busy={form.busy} error={form.error} invalid={invalid} />
    </form>
  );
}
