import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  paymentProviderBodySchema,
  updateClinicBodySchema,
  type PaymentProvider,
} from '@marpe/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../lib/confirm-dialog';
import { errorText, serverFieldErrors, validate, type FieldErrors } from '../../lib/field-errors';
import { useNotify } from '../../lib/notify';
import { PageLoading } from '../../lib/page-loading';
import { StepPage } from '../../lib/setup-step';
import { clinicQueryKey, getClinic, updateClinicSettings } from './api/clinic-settings';
import {
  getPaymentProvider,
  paymentProviderQueryKey,
  removePaymentProvider,
  setPaymentProvider,
} from './api/payment-provider';
import { Section } from '../../lib/section';

/**
 * `/setup/terminal`: the card terminal payment links charge on, and its API credentials, with
 * which Marpe confirms each charge with the provider before calling it paid.
 */
export function TerminalPage() {
  return (
    <StepPage step="terminal">
      <Terminal />
    </StepPage>
  );
}

function Terminal() {
  const { t } = useTranslation('setup-connections');
  const clinic = useQuery({ queryKey: clinicQueryKey, queryFn: getClinic });
  const provider = useQuery({ queryKey: paymentProviderQueryKey, queryFn: getPaymentProvider });
  const failed = clinic.error ?? provider.error;
  return (
    <>
      <Typography sx={{ mb: 1 }}>{t('terminal.intro')}</Typography>
      <Typography sx={{ mb: 3 }}>{t('terminal.introCredentials')}</Typography>
      {failed ? (
        <Alert severity="error">{errorText(t, failed)}</Alert>
      ) : !clinic.data || !provider.data ? (
        <PageLoading />
      ) : (
        <Stack spacing={3}>
          <TerminalName current={clinic.data.settings.card_terminal} />
          <Credentials provider={provider.data} />
        </Stack>
      )}
    </>
  );
}

function TerminalName({ current }: { current: string | null }) {
  const { t } = useTranslation('setup-connections');
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [name, setName] = useState(current ?? '');
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({ mutationFn: updateClinicSettings });

  async function submit(event: FormEvent) {
    event.preventDefault();
    // Empty: no default terminal (each payment link then names one).
    const cardTerminal = name.trim() === '' ? null : name;
    const checked = validate(t, updateClinicBodySchema, {
      settings: { card_terminal: cardTerminal },
    });
    if (checked.errors) {
      setError(
        checked.errors['settings.card_terminal'] ?? Object.values(checked.errors)[0] ?? null,
      );
      return;
    }
    setError(null);
    try {
      const saved = await save.mutateAsync({ card_terminal: cardTerminal });
      queryClient.setQueryData(clinicQueryKey, saved);
      setName(saved.settings.card_terminal ?? '');
      notify(
        saved.settings.card_terminal
          ? t('terminal.saved', { name: saved.settings.card_terminal })
          : t('terminal.cleared'),
      );
    } catch (failure) {
      const fields = serverFieldErrors(t, failure);
      if (fields) setError(fields['settings.card_terminal'] ?? Object.values(fields)[0] ?? null);
    }
  }

  const otherFailure = save.isError && serverFieldErrors(t, save.error) === null;
  return (
    <Section title={t('terminal.nameTitle')}>
      <form noValidate onSubmit={(event) => void submit(event)}>
        <TextField
          label={t('terminal.name')}
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={error !== null}
          helperText={error ?? t('terminal.nameHelp')}
          autoComplete="off"
          sx={{ maxWidth: 420 }}
          slotProps={{ htmlInput: { dir: 'ltr' } }}
        />
        {otherFailure ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorText(t, save.error)}
          </Alert>
        ) : null}
        <div>
          <Button type="submit" variant="contained" loading={save.isPending} sx={{ mt: 2 }}>
            {t('common:save')}
          </Button>
        </div>
      </form>
    </Section>
  );
}

function Credentials({ provider }: { provider: PaymentProvider }) {
  const { t } = useTranslation('setup-connections');
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [appKey, setAppKey] = useState('');
  const [secret, setSecret] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [removing, setRemoving] = useState(false);
  const save = useMutation({ mutationFn: setPaymentProvider });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = validate(t, paymentProviderBodySchema, { app_key: appKey, secret });
    if (checked.errors) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    try {
      const saved = await save.mutateAsync(checked.data);
      queryClient.setQueryData(paymentProviderQueryKey, saved);
      // Write-only: the secret leaves the page once it is stored.
      setAppKey('');
      setSecret('');
      notify(t('credentials.saved'));
    } catch (failure) {
      const fields = serverFieldErrors(t, failure);
      if (fields) setErrors(fields);
    }
  }

  const otherFailure = save.isError && serverFieldErrors(t, save.error) === null;
  return (
    <Section title={t('credentials.title')}>
      {provider.configured ? (
        <Alert severity="success" sx={{ mb: 2 }}>
          {t('credentials.set')} <bdi>{provider.app_key}</bdi>
        </Alert>
      ) : (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('credentials.notSet')}
        </Alert>
      )}
      <form noValidate onSubmit={(event) => void submit(event)}>
        <Stack spacing={2} sx={{ maxWidth: 420 }}>
          <Typography>
            {provider.configured ? t('credentials.replaceIntro') : t('credentials.setIntro')}
          </Typography>
          <TextField
            label={t('credentials.appKey')}
            value={appKey}
            onChange={(event) => setAppKey(event.target.value)}
            error={errors.app_key !== undefined}
            helperText={errors.app_key ?? t('credentials.appKeyHelp')}
            required
            autoComplete="off"
            slotProps={{ htmlInput: { dir: 'ltr' } }}
          />
          <TextField
            type="password"
            label={t('credentials.secret')}
            value={secret}
            onChange={(event) => setSecret(event.target.value)}
            error={errors.secret !== undefined}
            helperText={errors.secret ?? t('credentials.secretHelp')}
            required
            autoComplete="new-password"
            slotProps={{ htmlInput: { dir: 'ltr' } }}
          />
          {otherFailure ? <Alert severity="error">{errorText(t, save.error)}</Alert> : null}
        </Stack>
        <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 2, flexWrap: 'wrap' }}>
          <Button type="submit" variant="contained" loading={save.isPending}>
            {t('credentials.save')}
          </Button>
          {provider.configured ? (
            <Button color="error" onClick={() => setRemoving(true)}>
              {t('credentials.remove')}
            </Button>
          ) : null}
        </Stack>
      </form>
      <ConfirmDialog
        open={removing}
        title={t('credentials.removeTitle')}
        body={t('credentials.removeBody')}
        confirmLabel={t('credentials.remove')}
        destructive
        onClose={() => setRemoving(false)}
        onConfirm={async () => {
          const saved = await removePaymentProvider();
          queryClient.setQueryData(paymentProviderQueryKey, saved);
          notify(t('credentials.removed'));
        }}
      />
    </Section>
  );
}
