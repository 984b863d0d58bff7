import OpenInNewIcon from '../../lib/icons/open-in-new';
import WhatsAppIcon from '../../lib/icons/whatsapp';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Link from '@mui/material/Link';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  updateClinicBodySchema,
  type WhatsAppConnectResponse,
  type WhatsAppStatus,
} from '@marpe/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api';
import { ConfirmDialog } from '../../lib/confirm-dialog';
import { errorText, serverFieldErrors, validate } from '../../lib/field-errors';
import { localeOf } from '../../lib/format';
import { useNotify } from '../../lib/notify';
import { PageLoading } from '../../lib/page-loading';
import { StepPage } from '../../lib/setup-step';
import { clinicQueryKey, updateClinicSettings } from './api/clinic-settings';
import {
  disconnectWhatsApp,
  getWhatsAppStatus,
  startWhatsAppConnection,
  whatsappQueryKey,
} from './api/whatsapp';
import { Section } from '../../lib/section';

type Channel = WhatsAppStatus['messaging_channel'];

/**
 * `/setup/channel`: how patients get their messages, SMS or WhatsApp, and the WhatsApp
 * connection. Connecting happens on the connection page (Meta's sign-up) in another tab; this
 * page asks again whenever the owner comes back to it.
 */
export function ChannelPage() {
  return (
    <StepPage step="channel">
      <Channel />
    </StepPage>
  );
}

function Channel() {
  const { t } = useTranslation('setup-connections');
  const status = useQuery({
    queryKey: whatsappQueryKey,
    queryFn: getWhatsAppStatus,
    // Back from the connection page's tab: ask again at once.
    staleTime: 0,
    refetchOnWindowFocus: 'always',
  });
  return (
    <>
      <Typography sx={{ mb: 3 }}>{t('channel.intro')}</Typography>
      {status.isError ? (
        <Alert severity="error">{errorText(t, status.error)}</Alert>
      ) : !status.data ? (
        <PageLoading />
      ) : (
        <Stack spacing={3}>
          <WhatsAppConnection status={status.data} />
          <ChannelChoice status={status.data} />
        </Stack>
      )}
    </>
  );
}

function WhatsAppConnection({ status }: { status: WhatsAppStatus }) {
  const { t, i18n } = useTranslation('setup-connections');
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [link, setLink] = useState<WhatsAppConnectResponse | null>(null);
  const [disconnecting, setDisconnecting] = useState(false);
  const connect = useMutation({
    mutationFn: startWhatsAppConnection,
    onSuccess: (started) => {
      setLink(started);
      window.open(started.url, '_blank', 'noopener');
    },
  });
  const unavailable = connect.error instanceof ApiError && connect.error.status === 503;

  if (status.connected) {
    return (
      <Section title={t('whatsapp.title')}>
        <Alert severity="success" sx={{ mb: 2 }}>
          {t('whatsapp.connected', {
            date: status.connected_at
              ? new Intl.DateTimeFormat(localeOf(i18n.language), { dateStyle: 'long' }).format(
                  new Date(status.connected_at),
                )
              : '',
          })}
        </Alert>
        {status.phone_number_id ? (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {t('whatsapp.phoneId')} <bdi>{status.phone_number_id}</bdi>
          </Typography>
        ) : null}
        <Button variant="outlined" color="error" onClick={() => setDisconnecting(true)}>
          {t('whatsapp.disconnect')}
        </Button>
        <ConfirmDialog
          open={disconnecting}
          title={t('whatsapp.disconnectTitle')}
          body={t('whatsapp.disconnectBody')}
          confirmLabel={t('whatsapp.disconnect')}
          destructive
          onClose={() => setDisconnecting(false)}
          onConfirm={async () => {
            await disconnectWhatsApp();
            await queryClient.invalidateQueries({ queryKey: whatsappQueryKey });
            await queryClient.invalidateQueries({ queryKey: clinicQueryKey });
            notify(t('whatsapp.disconnected'));
          }}
        />
      </Section>
    );
  }

  return (
    <Section title={t('whatsapp.title')}>
      <Typography sx={{ mb: 1 }}>{t('whatsapp.notConnected')}</Typography>
      <Typography sx={{ mb: 2 }}>{t('whatsapp.howItWorks')}</Typography>
      {unavailable ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('whatsapp.unavailable')}
        </Alert>
      ) : connect.isError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errorText(t, connect.error)}
        </Alert>
      ) : null}
      {link ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('whatsapp.opened')}{' '}
          <Link href={link.url} target="_blank" rel="noopener">
            {t('whatsapp.openAgain')}
            <span className="visually-hidden"> ({t('step.newTab')})</span>
          </Link>
        </Alert>
      ) : null}
      <Button
        variant="contained"
        startIcon={<WhatsAppIcon />}
        endIcon={<OpenInNewIcon />}
        loading={connect.isPending}
        onClick={() => connect.mutate()}
        disabled={unavailable}
      >
        {t('whatsapp.connect')}
        <span className="visually-hidden"> ({t('step.newTab')})</span>
      </Button>
    </Section>
  );
}

function ChannelChoice({ status }: { status: WhatsAppStatus }) {
  const { t } = useTranslation('setup-connections');
  const id = useId();
  const queryClient = useQueryClient();
  const notify = useNotify();
  // null: as the server has it (it may change while this page waits for the other tab).
  const [chosen, setChosen] = useState<Channel | null>(null);
  const [error, setError] = useState<string | null>(null);
  const value = chosen ?? status.messaging_channel;
  const save = useMutation({ mutationFn: updateClinicSettings });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = validate(t, updateClinicBodySchema, { settings: { messaging_channel: value } });
    if (checked.errors) {
      setError(Object.values(checked.errors)[0] ?? null);
      return;
    }
    setError(null);
    try {
      await save.mutateAsync({ messaging_channel: value });
      await queryClient.invalidateQueries({ queryKey: whatsappQueryKey });
      await queryClient.invalidateQueries({ queryKey: clinicQueryKey });
      setChosen(null);
      notify(t('channel.saved', { channel: t(`channel.${value}`) }));
    } catch (failure) {
      const fields = serverFieldErrors(t, failure);
      // The server refuses WhatsApp while it is not connected (another tab may have disconnected).
      if (fields) setError(fields['settings.messaging_channel'] ?? t('channel.connectFirst'));
    }
  }

  const otherFailure = save.isError && serverFieldErrors(t, save.error) === null;
  return (
    <Section title={t('channel.choice')}>
      <form noValidate onSubmit={(event) => void submit(event)}>
        <FormControl error={error !== null}>
          <FormLabel id={`${id}-label`}>{t('channel.legend')}</FormLabel>
          <RadioGroup
            aria-labelledby={`${id}-label`}
            value={value}
            onChange={(event) => setChosen(event.target.value as Channel)}
          >
            <FormControlLabel value="sms" control={<Radio />} label={t('channel.smsLabel')} />
            <FormControlLabel
              value="whatsapp"
              control={<Radio />}
              label={t('channel.whatsappLabel')}
              disabled={!status.connected}
            />
          </RadioGroup>
          <FormHelperText>
            {error ?? (status.connected ? t('channel.whatsappHelp') : t('channel.connectFirst'))}
          </FormHelperText>
        </FormControl>
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
