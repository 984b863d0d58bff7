import KeyIcon from '../../../lib/icons/key';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ApiKey } from '@marpe/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../lib/confirm-dialog';
import { errorText } from '../../../lib/field-errors';
import { useNotify } from '../../../lib/notify';
import { PageLoading } from '../../../lib/page-loading';
import { Section } from '../../../lib/section';
import { apiKeysQueryKey, revokeApiKey, useApiKeys } from '../api/api-keys';
import { useClinicDates } from '../../../lib/clinic-dates';
import { CreateKeyDialog } from './create-key-dialog';

/** The clinic's API keys: made here with a name (shown once), revoked here. */
export function ApiKeysSection() {
  const { t } = useTranslation('integrations');
  const id = useId();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const keys = useApiKeys();
  const { dayAndTime: dateTime } = useClinicDates();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey });

  // Live keys first, then the revoked ones; newest first within each.
  const list = [...(keys.data ?? [])].sort(
    (a, b) => Number(a.revoked_at !== null) - Number(b.revoked_at !== null) || b.id - a.id,
  );

  return (
    <Section title={t('keys.title')} intro={t('keys.intro')} id={`${id}-keys`}>
      <Button
        variant="contained"
        startIcon={<KeyIcon />}
        onClick={() => setCreating(true)}
        sx={{ mb: 2 }}
      >
        {t('keys.create')}
      </Button>
      {keys.isPending ? <PageLoading /> : null}
      {keys.isError ? <Alert severity="error">{errorText(t, keys.error)}</Alert> : null}
      {keys.isSuccess && list.length === 0 ? <Typography>{t('keys.none')}</Typography> : null}
      {list.length > 0 ? (
        <TableContainer>
          <Table size="small" aria-labelledby={`${id}-keys`}>
            <TableHead>
              <TableRow>
                <TableCell>{t('keys.name')}</TableCell>
                <TableCell>{t('keys.prefix')}</TableCell>
                <TableCell>{t('keys.createdAt')}</TableCell>
                <TableCell>{t('keys.lastUsed')}</TableCell>
                <TableCell>{t('keys.state')}</TableCell>
                <TableCell>
                  <span className="visually-hidden">{t('actions')}</span>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.map((key) => (
                <TableRow key={key.id}>
                  <TableCell component="th" scope="row">
                    {key.name}
                  </TableCell>
                  <TableCell>
                    <bdi dir="ltr">
                      <code>{key.prefix}…</code>
                    </bdi>
                  </TableCell>
                  <TableCell>{dateTime(key.created_at)}</TableCell>
                  <TableCell>
                    {key.last_used_at ? dateTime(key.last_used_at) : t('keys.neverUsed')}
                  </TableCell>
                  <TableCell>
                    {key.revoked_at ? (
                      <Chip
                        size="small"
                        variant="outlined"
                        label={t('keys.revokedOn', { date: dateTime(key.revoked_at) })}
                      />
                    ) : (
                      <Chip size="small" color="success" label={t('keys.live')} />
                    )}
                  </TableCell>
                  <TableCell sx={{ textAlign: 'end' }}>
                    {key.revoked_at ? null : (
                      <Button color="error" onClick={() => setRevoking(key)}>
                        {t('keys.revoke')}
                        <span className="visually-hidden"> {key.name}</span>
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      ) : null}

      <CreateKeyDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={() => void refresh()}
      />
      <ConfirmDialog
        open={revoking !== null}
        title={t('keys.revokeTitle', { name: revoking?.name ?? '' })}
        body={t('keys.revokeBody', { name: revoking?.name ?? '' })}
        confirmLabel={t('keys.revokeConfirm')}
        destructive
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          if (!revoking) return;
          await revokeApiKey(revoking.id);
          notify(t('keys.revoked', { name: revoking.name }));
          await refresh();
        }}
      />
    </Section>
  );
}
