import AddLinkIcon from '../../../lib/icons/add-link';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { WebhookEndpoint } from '@marpe/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../lib/confirm-dialog';
import { errorText } from '../../../lib/field-errors';
import { useNotify } from '../../../lib/notify';
import { PageLoading } from '../../../lib/page-loading';
import { Section } from '../../../lib/section';
import { deliveriesQueryKey } from '../api/deliveries';
import {
  deleteWebhook,
  rotateWebhookSecret,
  setWebhookActive,
  useWebhooks,
  webhooksQueryKey,
} from '../api/webhooks';
import { DeliveriesTable } from './deliveries-table';
import { SecretDialog, type Secret } from './shown-once';
import { WebhookDialog } from './webhook-dialog';

/** The clinic's webhook endpoints (add, rotate the secret, pause, delete) and their deliveries. */
export function WebhooksSection() {
  const { t } = useTranslation('integrations');
  const id = useId();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const webhooks = useWebhooks();
  const [creating, setCreating] = useState(false);
  const [rotating, setRotating] = useState<WebhookEndpoint | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const [switching, setSwitching] = useState<number | null>(null);
  const [secret, setSecret] = useState<Secret | null>(null);
  const endpoints = webhooks.data ?? [];

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: webhooksQueryKey });
    await queryClient.invalidateQueries({ queryKey: deliveriesQueryKey });
  };

  async function switchActive(endpoint: WebhookEndpoint) {
    setSwitching(endpoint.id);
    try {
      await setWebhookActive(endpoint.id, !endpoint.is_active);
      notify(t(endpoint.is_active ? 'webhooks.paused' : 'webhooks.resumed', { url: endpoint.url }));
    } catch (failure) {
      notify(errorText(t, failure), 'error');
    } finally {
      setSwitching(null);
      await refresh();
    }
  }

  return (
    <Section title={t('webhooks.title')} intro={t('webhooks.intro')} id={`${id}-webhooks`}>
      <Button
        variant="contained"
        startIcon={<AddLinkIcon />}
        onClick={() => setCreating(true)}
        sx={{ mb: 2 }}
      >
        {t('webhooks.create')}
      </Button>
      {webhooks.isPending ? <PageLoading /> : null}
      {webhooks.isError ? <Alert severity="error">{errorText(t, webhooks.error)}</Alert> : null}
      {webhooks.isSuccess && endpoints.length === 0 ? (
        <Typography>{t('webhooks.none')}</Typography>
      ) : null}
      {endpoints.length > 0 ? (
        <TableContainer>
          <Table size="small" aria-labelledby={`${id}-webhooks`}>
            <TableHead>
              <TableRow>
                <TableCell>{t('webhooks.url')}</TableCell>
                <TableCell>{t('webhooks.events')}</TableCell>
                <TableCell>{t('webhooks.state')}</TableCell>
                <TableCell>
                  <span className="visually-hidden">{t('actions')}</span>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {endpoints.map((endpoint) => (
                <TableRow key={endpoint.id}>
                  <TableCell component="th" scope="row" sx={{ wordBreak: 'break-all' }}>
                    <bdi dir="ltr">{endpoint.url}</bdi>
                  </TableCell>
                  <TableCell>
                    {endpoint.events.length === 0
                      ? t('webhooks.allShort')
                      : endpoint.events.map((type) => t(`eventTypes.${type}`)).join(', ')}
                  </TableCell>
                  <TableCell>
                    {endpoint.is_active ? (
                      <Chip size="small" color="success" label={t('webhooks.active')} />
                    ) : (
                      <Chip size="small" variant="outlined" label={t('webhooks.inactive')} />
                    )}
                  </TableCell>
                  <TableCell sx={{ textAlign: 'end' }}>
                    <Stack
                      direction="row"
                      spacing={1}
                      useFlexGap
                      sx={{ justifyContent: 'flex-end', flexWrap: 'wrap' }}
                    >
                      <Button onClick={() => setRotating(endpoint)}>
                        {t('webhooks.rotate')}
                        <span className="visually-hidden"> {endpoint.url}</span>
                      </Button>
                      <Button
                        onClick={() => void switchActive(endpoint)}
                        loading={switching === endpoint.id}
                      >
                        {t(endpoint.is_active ? 'webhooks.pause' : 'webhooks.resume')}
                        <span className="visually-hidden"> {endpoint.url}</span>
                      </Button>
                      <Button color="error" onClick={() => setDeleting(endpoint)}>
                        {t('webhooks.delete')}
                        <span className="visually-hidden"> {endpoint.url}</span>
                      </Button>
                    </Stack>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      ) : null}

      {endpoints.length > 0 ? <DeliveriesTable endpoints={endpoints} /> : null}

      <WebhookDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={() => void refresh()}
      />
      <ConfirmDialog
        open={rotating !== null}
        title={t('webhooks.rotateTitle')}
        body={t('webhooks.rotateBody', { url: rotating?.url ?? '' })}
        confirmLabel={t('webhooks.rotateConfirm')}
        onClose={() => setRotating(null)}
        onConfirm={async () => {
          if (!rotating) return;
          const rotated = await rotateWebhookSecret(rotating.id);
          if (rotated.secret) {
            setSecret({
              title: t('webhooks.rotatedTitle'),
              label: t('webhooks.secret'),
              value: rotated.secret,
              body: t('webhooks.rotatedBody'),
            });
          }
          notify(t('webhooks.rotated', { url: rotating.url }));
          await refresh();
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={t('webhooks.deleteTitle')}
        body={t('webhooks.deleteBody', { url: deleting?.url ?? '' })}
        confirmLabel={t('webhooks.deleteConfirm')}
        destructive
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          await deleteWebhook(deleting.id);
          notify(t('webhooks.deleted', { url: deleting.url }));
          await refresh();
        }}
      />
      <SecretDialog secret={secret} onClose={() => setSecret(null)} />
    </Section>
  );
}
