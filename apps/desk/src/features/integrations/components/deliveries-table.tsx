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
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  webhookDeliveryStatuses,
  webhookRetryRefusals,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
  type WebhookEndpoint,
  type WebhookRetryRefusal,
} from '@marpe/shared';
import { useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api';
import { errorText } from '../../../lib/field-errors';
import { useNotify } from '../../../lib/notify';
import { PageLoading } from '../../../lib/page-loading';
import {
  deliveriesQueryKey,
  retryDelivery,
  useDeliveries,
  type DeliveryFilter,
} from '../api/deliveries';
import { useClinicDates } from '../../../lib/clinic-dates';

const statusColor = {
  pending: 'info',
  delivered: 'success',
  failed: 'error',
} as const satisfies Record<WebhookDeliveryStatus, string>;

/** The server's words for a failed try (webhooks-service.ts), said in the reader's language. */
const failures: [RegExp, string][] = [
  [/^The endpoint answered (\d+)$/, 'deliveries.failures.answered'],
  [/^No answer within/, 'deliveries.failures.timeout'],
  [/^Request failed: (.+)$/, 'deliveries.failures.network'],
  [/^refused: not a public address$/, 'deliveries.failures.notPublic'],
  [/^The endpoint was deactivated$/, 'deliveries.failures.deactivated'],
  [/^Given up: the endpoint kept failing$/, 'deliveries.failures.gaveUp'],
];

/** Why a retry failed, in the reader's language: the API's reason for a 409, else the usual. */
export function retryFailure(t: TFunction, error: unknown): string {
  if (error instanceof ApiError && error.status === 409) {
    const reason = (error.details as { reason?: unknown } | undefined)?.reason;
    if (webhookRetryRefusals.includes(reason as WebhookRetryRefusal)) {
      return t(`deliveries.retryRefused.${reason as WebhookRetryRefusal}`);
    }
  }
  return errorText(t, error);
}

/**
 * The delivery log: every event sent to each endpoint, newest first, filtered and paged; a failed
 * delivery can be sent again.
 */
export function DeliveriesTable({ endpoints }: { endpoints: readonly WebhookEndpoint[] }) {
  const { t } = useTranslation('integrations');
  const id = useId();
  const { dayAndTime: dateTime } = useClinicDates();
  const notify = useNotify();
  const queryClient = useQueryClient();
  /** The delivery whose retry is under way. */
  const [retrying, setRetrying] = useState<number | null>(null);
  const [filter, setFilter] = useState<DeliveryFilter>({ endpointId: null, status: null });
  const deliveries = useDeliveries(filter);
  const rows = deliveries.data?.pages.flat() ?? [];
  const urlOf = (endpointId: number) =>
    endpoints.find((endpoint) => endpoint.id === endpointId)?.url ?? `#${endpointId}`;

  async function retry(delivery: WebhookDelivery) {
    setRetrying(delivery.id);
    try {
      await retryDelivery(delivery.id);
      notify(
        t('deliveries.retried', {
          event: t(`eventTypes.${delivery.event_type}`),
          url: urlOf(delivery.endpoint_id),
        }),
      );
    } catch (failure) {
      notify(retryFailure(t, failure), 'error');
    } finally {
      setRetrying(null);
      // The row reads pending (or, refused, as it stands now).
      await queryClient.invalidateQueries({ queryKey: deliveriesQueryKey });
    }
  }

  const result = (delivery: WebhookDelivery) => {
    if (delivery.status === 'delivered') {
      return t('deliveries.answered', { code: delivery.last_status_code ?? 200 });
    }
    const error = delivery.last_error;
    if (error) {
      for (const [pattern, key] of failures) {
        const match = pattern.exec(error);
        if (match) return t(key, { detail: match[1] ?? '' });
      }
      return error;
    }
    return delivery.attempts === 0 ? t('deliveries.notYet') : '';
  };

  return (
    <Stack spacing={2} sx={{ mt: 4 }} component="section" aria-labelledby={`${id}-title`}>
      <Typography variant="h3" id={`${id}-title`}>
        {t('deliveries.title')}
      </Typography>
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <TextField
          select
          size="small"
          label={t('deliveries.endpoint')}
          value={filter.endpointId === null ? '' : String(filter.endpointId)}
          onChange={(e) =>
            setFilter((f) => ({
              ...f,
              endpointId: e.target.value === '' ? null : Number(e.target.value),
            }))
          }
          fullWidth={false}
          sx={{ minWidth: 240, maxWidth: '100%' }}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        >
          <option value="">{t('deliveries.allEndpoints')}</option>
          {endpoints.map((endpoint) => (
            <option key={endpoint.id} value={endpoint.id}>
              {endpoint.url}
            </option>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('deliveries.status')}
          value={filter.status ?? ''}
          onChange={(e) =>
            setFilter((f) => ({
              ...f,
              status: e.target.value === '' ? null : (e.target.value as WebhookDeliveryStatus),
            }))
          }
          fullWidth={false}
          sx={{ minWidth: 160 }}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        >
          <option value="">{t('deliveries.allStatuses')}</option>
          {webhookDeliveryStatuses.map((status) => (
            <option key={status} value={status}>
              {t(`deliveries.statuses.${status}`)}
            </option>
          ))}
        </TextField>
      </Stack>
      {deliveries.isPending ? <PageLoading /> : null}
      {deliveries.isError ? <Alert severity="error">{errorText(t, deliveries.error)}</Alert> : null}
      {deliveries.isSuccess && rows.length === 0 ? (
        <Typography>{t('deliveries.none')}</Typography>
      ) : null}
      {rows.length > 0 ? (
        <TableContainer>
          <Table size="small" aria-labelledby={`${id}-title`}>
            <TableHead>
              <TableRow>
                <TableCell>{t('deliveries.time')}</TableCell>
                <TableCell>{t('deliveries.event')}</TableCell>
                <TableCell>{t('deliveries.endpoint')}</TableCell>
                <TableCell>{t('deliveries.status')}</TableCell>
                <TableCell>{t('deliveries.attempts')}</TableCell>
                <TableCell>{t('deliveries.result')}</TableCell>
                <TableCell>
                  <span className="visually-hidden">{t('actions')}</span>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((delivery) => (
                <TableRow key={delivery.id}>
                  <TableCell component="th" scope="row">
                    {dateTime(delivery.created_at)}
                  </TableCell>
                  <TableCell>{t(`eventTypes.${delivery.event_type}`)}</TableCell>
                  <TableCell sx={{ wordBreak: 'break-all' }}>
                    <bdi dir="ltr">{urlOf(delivery.endpoint_id)}</bdi>
                  </TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      color={statusColor[delivery.status]}
                      variant={delivery.status === 'pending' ? 'outlined' : 'filled'}
                      label={t(`deliveries.statuses.${delivery.status}`)}
                    />
                  </TableCell>
                  <TableCell>{delivery.attempts}</TableCell>
                  <TableCell>
                    <bdi>{result(delivery)}</bdi>
                    {delivery.last_attempt_at ? (
                      <Typography variant="body2" color="text.secondary">
                        {t('deliveries.lastAttempt', { date: dateTime(delivery.last_attempt_at) })}
                      </Typography>
                    ) : null}
                  </TableCell>
                  <TableCell sx={{ textAlign: 'end' }}>
                    {delivery.status === 'failed' ? (
                      <Button
                        onClick={() => void retry(delivery)}
                        loading={retrying === delivery.id}
                        disabled={retrying !== null && retrying !== delivery.id}
                      >
                        {t('deliveries.retry')}
                        <span className="visually-hidden">
                          {' '}
                          {t(`eventTypes.${delivery.event_type}`)}, {dateTime(delivery.created_at)}
                        </span>
                      </Button>
                    ) : null}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      ) : null}
      {deliveries.hasNextPage ? (
        <div>
          <Button
            onClick={() => void deliveries.fetchNextPage()}
            loading={deliveries.isFetchingNextPage}
          >
            {t('deliveries.more')}
          </Button>
        </div>
      ) : null}
    </Stack>
  );
}
