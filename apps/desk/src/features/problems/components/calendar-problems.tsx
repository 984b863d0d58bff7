import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { IntegrationCaregiver } from '@marpe/shared';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useCalendarSync } from '../../../lib/calendar-sync';
import { errorText } from '../../../lib/field-errors';
import { formatInstant } from '../../../lib/format';
import { PageLoading } from '../../../lib/page-loading';
import { Section } from '../../../lib/section';
import { useCalendarConflicts } from '../api/calendar-sync';
import { PROBLEMS_REFRESH_MS } from '../api/message-failures';

/** States that need someone to act (share the calendar, fix its id); the rest sort themselves. */
const troubled = new Set(['read_only', 'no_access', 'not_found', 'error']);

function useCaregiverName(caregivers: IntegrationCaregiver[] | undefined) {
  const { t } = useTranslation('problems');
  return (id: number) =>
    caregivers?.find((c) => c.id === id)?.name ?? t('unknownCaregiver', { id });
}

/** Each synced caregiver calendar's state; those in trouble stand out. */
export function CalendarSyncState({
  zone,
  caregivers,
}: {
  zone: string | undefined;
  caregivers: IntegrationCaregiver[] | undefined;
}) {
  const { t, i18n } = useTranslation('problems');
  const id = useId();
  const sync = useCalendarSync(PROBLEMS_REFRESH_MS);
  const nameOf = useCaregiverName(caregivers);
  const calendars = sync.data?.caregivers ?? [];
  const email = sync.data?.service_account_email ?? null;
  // Not shared, or shared without "Make changes to events": the same fix for a calendar reached
  // through the service account. One connected by consent is fixed by the caregiver consenting
  // again and choosing a calendar they may change: a new connection link, not a share.
  const refused = calendars.filter((c) => c.state === 'no_access' || c.state === 'read_only');
  const needsSharing = refused.some((c) => c.connection === 'service_account');
  const needsNewLink = refused.some((c) => c.connection === 'oauth');

  return (
    <Section title={t('sync.title')} intro={t('sync.intro')} id={id}>
      {sync.isPending ? <PageLoading /> : null}
      {sync.isError ? (
        <Alert severity="error">{t('loadFailed', { error: errorText(t, sync.error) })}</Alert>
      ) : null}
      {sync.isSuccess && calendars.length === 0 ? <Typography>{t('sync.none')}</Typography> : null}
      {needsSharing && email ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('sync.shareWith', { email })}
        </Alert>
      ) : null}
      {needsNewLink ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('sync.newLink')}
        </Alert>
      ) : null}
      {calendars.length > 0 ? (
        <TableContainer>
          <Table size="small" aria-labelledby={id}>
            <TableHead>
              <TableRow>
                <TableCell>{t('sync.caregiver')}</TableCell>
                <TableCell>{t('sync.calendar')}</TableCell>
                <TableCell>{t('sync.state')}</TableCell>
                <TableCell>{t('sync.lastSynced')}</TableCell>
                <TableCell>{t('sync.lastError')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {calendars.map((calendar) => {
                const bad = troubled.has(calendar.state);
                return (
                  <TableRow
                    key={calendar.caregiver_id}
                    sx={bad ? { backgroundColor: 'rgba(211, 47, 47, 0.06)' } : undefined}
                  >
                    <TableCell component="th" scope="row">
                      {nameOf(calendar.caregiver_id)}
                    </TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>
                      <bdi dir="ltr">{calendar.calendar_id}</bdi>
                    </TableCell>
                    <TableCell>
                      <Chip
                        size="small"
                        label={t(`sync.states.${calendar.state}`)}
                        color={bad ? 'error' : calendar.state === 'syncing' ? 'success' : 'default'}
                        variant={bad ? 'filled' : 'outlined'}
                      />
                    </TableCell>
                    <TableCell>
                      {calendar.last_synced_at ? (
                        <bdi>{formatInstant(calendar.last_synced_at, i18n.language, zone)}</bdi>
                      ) : (
                        t('sync.never')
                      )}
                    </TableCell>
                    <TableCell sx={{ maxWidth: 320, overflowWrap: 'anywhere' }}>
                      {calendar.last_error ? <bdi dir="ltr">{calendar.last_error}</bdi> : '—'}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      ) : null}
    </Section>
  );
}

/** Clashes between caregivers' calendars and the clinic's bookings, newest first. */
export function CalendarConflicts({
  zone,
  caregivers,
}: {
  zone: string | undefined;
  caregivers: IntegrationCaregiver[] | undefined;
}) {
  const { t, i18n } = useTranslation('problems');
  const id = useId();
  const conflicts = useCalendarConflicts();
  const nameOf = useCaregiverName(caregivers);
  const rows = conflicts.data ?? [];

  return (
    <Section title={t('conflicts.title')} intro={t('conflicts.intro')} id={id}>
      {conflicts.isPending ? <PageLoading /> : null}
      {conflicts.isError ? (
        <Alert severity="error">{t('loadFailed', { error: errorText(t, conflicts.error) })}</Alert>
      ) : null}
      {conflicts.isSuccess && rows.length === 0 ? (
        <Typography>{t('conflicts.none')}</Typography>
      ) : null}
      {rows.length > 0 ? (
        <TableContainer>
          <Table size="small" aria-labelledby={id}>
            <TableHead>
              <TableRow>
                <TableCell>{t('conflicts.detected')}</TableCell>
                <TableCell>{t('conflicts.caregiver')}</TableCell>
                <TableCell>{t('conflicts.kind')}</TableCell>
                <TableCell>{t('conflicts.appointment')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((conflict) => (
                <TableRow key={conflict.id}>
                  <TableCell>
                    <bdi>{formatInstant(conflict.detected_at, i18n.language, zone)}</bdi>
                  </TableCell>
                  <TableCell>{nameOf(conflict.caregiver_id)}</TableCell>
                  <TableCell component="th" scope="row">
                    {t(`conflicts.kinds.${conflict.kind}`)}
                  </TableCell>
                  <TableCell>
                    {t('conflicts.appointmentNumber', { id: conflict.appointment_id })}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      ) : null}
    </Section>
  );
}
