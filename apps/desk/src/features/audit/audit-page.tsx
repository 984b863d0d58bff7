import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/field-errors';
import { useClinicZoneQuery } from '../../lib/clinic-dates';
import { formatInstant } from '../../lib/format';
import { OwnersOnly } from '../../lib/owners-only';
import { Page } from '../../lib/page';
import { PageLoading } from '../../lib/page-loading';
import { Section } from '../../lib/section';
import { useAuditKeys, useAuditLog, useAuditStaff, type AuditFilter } from './api/audit-log';
import {
  actionLabel,
  actorLabel,
  auditResources,
  dayStartIn,
  detailsOf,
  otherActors,
} from './audit-labels';

/** `/desk/audit` (owners): who did what, filterable by who, the area and dates. */
export function AuditPage() {
  return (
    <OwnersOnly>
      <AuditLog />
    </OwnersOnly>
  );
}

interface FilterForm {
  actor: string;
  resource: string;
  /** YYYY-MM-DD, clinic days, both included. */
  from: string;
  to: string;
}

const noFilter: FilterForm = { actor: '', resource: '', from: '', to: '' };

function AuditLog() {
  const { t, i18n } = useTranslation('audit');
  const id = useId();
  const zone = useClinicZoneQuery();
  const staff = useAuditStaff();
  const keys = useAuditKeys();
  const [form, setForm] = useState<FilterForm>(noFilter);
  const datesWrong = form.from !== '' && form.to !== '' && form.to < form.from;
  const timeZone = zone.data ?? 'Asia/Jerusalem';

  const filter = useMemo<AuditFilter>(
    () => ({
      actor: form.actor || null,
      action: form.resource ? `${form.resource}.` : null,
      from: form.from && !datesWrong ? dayStartIn(form.from, timeZone) : null,
      // The day chosen is included: up to the next day's start.
      to: form.to && !datesWrong ? dayStartIn(form.to, timeZone, 1) : null,
    }),
    [form, datesWrong, timeZone],
  );
  const log = useAuditLog(filter);
  const entries = log.data?.pages.flat() ?? [];
  const filtered = Object.values(form).some((value) => value !== '');
  const set = (field: keyof FilterForm) => (event: { target: { value: string } }) =>
    setForm((current) => ({ ...current, [field]: event.target.value }));

  const members = staff.data?.members ?? [];
  const apiKeys = keys.data ?? [];

  return (
    <Page title={t('title')}>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('intro')}
      </Typography>
      <Stack spacing={3}>
        <Section title={t('filters.title')}>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} useFlexGap>
            <TextField
              select
              label={t('filters.actor')}
              value={form.actor}
              onChange={set('actor')}
              sx={{ minWidth: 220 }}
              slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
            >
              <option value="">{t('filters.anyActor')}</option>
              {members.length > 0 ? (
                <optgroup label={t('filters.staff')}>
                  {members.map((member) => (
                    <option key={member.account_id} value={`staff:${member.account_id}`}>
                      {member.name}
                    </option>
                  ))}
                </optgroup>
              ) : null}
              {apiKeys.length > 0 ? (
                <optgroup label={t('filters.keys')}>
                  {apiKeys.map((key) => (
                    <option key={key.id} value={`api_key:${key.id}`}>
                      {key.revoked_at ? t('filters.revoked', { name: key.name }) : key.name}
                    </option>
                  ))}
                </optgroup>
              ) : null}
              <optgroup label={t('filters.others')}>
                {otherActors.map((actor) => (
                  <option key={actor} value={actor}>
                    {t(`actors.${actor}`)}
                  </option>
                ))}
              </optgroup>
            </TextField>
            <TextField
              select
              label={t('filters.action')}
              value={form.resource}
              onChange={set('resource')}
              sx={{ minWidth: 200 }}
              slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
            >
              <option value="">{t('filters.anyAction')}</option>
              {auditResources.map((resource) => (
                <option key={resource} value={resource}>
                  {t(`resources.${resource}`)}
                </option>
              ))}
            </TextField>
            <TextField
              type="date"
              label={t('filters.from')}
              value={form.from}
              onChange={set('from')}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <TextField
              type="date"
              label={t('filters.to')}
              value={form.to}
              onChange={set('to')}
              error={datesWrong}
              helperText={datesWrong ? t('filters.toBeforeFrom') : undefined}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            {filtered ? (
              <Button onClick={() => setForm(noFilter)} sx={{ alignSelf: 'center' }}>
                {t('filters.clear')}
              </Button>
            ) : null}
          </Stack>
        </Section>

        <Section title={t('table.caption')} id={id}>
          {log.isPending ? <PageLoading /> : null}
          {log.isError ? <Alert severity="error">{errorText(t, log.error)}</Alert> : null}
          {log.isSuccess && entries.length === 0 ? (
            <Typography>{filtered ? t('table.noneFiltered') : t('table.none')}</Typography>
          ) : null}
          {entries.length > 0 ? (
            <TableContainer>
              <Table size="small" aria-labelledby={id}>
                <TableHead>
                  <TableRow>
                    <TableCell>{t('table.when')}</TableCell>
                    <TableCell>{t('table.who')}</TableCell>
                    <TableCell>{t('table.what')}</TableCell>
                    <TableCell>{t('table.details')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {entries.map((entry) => (
                    <TableRow key={entry.id}>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>
                        <bdi>{formatInstant(entry.created_at, i18n.language, zone.data)}</bdi>
                      </TableCell>
                      <TableCell>{actorLabel(t, entry)}</TableCell>
                      <TableCell component="th" scope="row">
                        {actionLabel(t, entry.action)}
                      </TableCell>
                      <TableCell sx={{ overflowWrap: 'anywhere' }}>
                        {detailsOf(t, entry).map((part, index) => (
                          <Typography key={index} variant="body2" component="div">
                            <bdi>{part}</bdi>
                          </Typography>
                        ))}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          ) : null}
          {log.hasNextPage ? (
            <Button
              sx={{ mt: 2 }}
              onClick={() => void log.fetchNextPage()}
              disabled={log.isFetchingNextPage}
            >
              {t('table.more')}
            </Button>
          ) : null}
        </Section>
      </Stack>
    </Page>
  );
}
