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
import type { IntegrationCaregiver } from '@marpe/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../lib/confirm-dialog';
import { errorText } from '../../../lib/field-errors';
import { useNotify } from '../../../lib/notify';
import { PageLoading } from '../../../lib/page-loading';
import { Section } from '../../../lib/section';
import {
  calendarFeedsQueryKey,
  createCalendarFeed,
  revokeCalendarFeed,
  useCalendarFeeds,
  useCaregivers,
} from '../api/calendar-feeds';
import { useClinicDates } from '../../../lib/clinic-dates';
import { SecretDialog, type Secret } from './shown-once';

/**
 * Each caregiver's iCalendar feed: a secret URL a calendar app subscribes to. Made (or replaced)
 * here and shown once; revoked here.
 */
export function CalendarFeedsSection() {
  const { t } = useTranslation('integrations');
  const id = useId();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { dayAndTime: dateTime } = useClinicDates();
  const caregivers = useCaregivers();
  const list = caregivers.data ?? [];
  const feeds = useCalendarFeeds(list.map((caregiver) => caregiver.id));
  const [making, setMaking] = useState<{ caregiver: IntegrationCaregiver; live: boolean } | null>(
    null,
  );
  const [revoking, setRevoking] = useState<IntegrationCaregiver | null>(null);
  const [secret, setSecret] = useState<Secret | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: calendarFeedsQueryKey });

  return (
    <Section title={t('feeds.title')} intro={t('feeds.intro')} id={`${id}-feeds`}>
      {caregivers.isPending ? <PageLoading /> : null}
      {caregivers.isError ? <Alert severity="error">{errorText(t, caregivers.error)}</Alert> : null}
      {caregivers.isSuccess && list.length === 0 ? (
        <Typography>{t('feeds.noCaregivers')}</Typography>
      ) : null}
      {list.length > 0 ? (
        <TableContainer>
          <Table size="small" aria-labelledby={`${id}-feeds`}>
            <TableHead>
              <TableRow>
                <TableCell>{t('feeds.caregiver')}</TableCell>
                <TableCell>{t('feeds.state')}</TableCell>
                <TableCell>
                  <span className="visually-hidden">{t('actions')}</span>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.map((caregiver, index) => {
                const feed = feeds[index];
                const live = feed?.data?.active === true;
                return (
                  <TableRow key={caregiver.id}>
                    <TableCell component="th" scope="row">
                      {caregiver.name}
                      {caregiver.is_active ? null : (
                        <Typography component="span" color="text.secondary">
                          {' '}
                          {t('feeds.inactiveCaregiver')}
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell>
                      {feed?.isError ? (
                        errorText(t, feed.error)
                      ) : !feed?.data ? (
                        t('loading', { ns: 'common' })
                      ) : live && feed.data.created_at ? (
                        <Chip
                          size="small"
                          color="success"
                          label={t('feeds.liveSince', { date: dateTime(feed.data.created_at) })}
                        />
                      ) : (
                        <Chip size="small" variant="outlined" label={t('feeds.none')} />
                      )}
                    </TableCell>
                    <TableCell sx={{ textAlign: 'end' }}>
                      <Stack
                        direction="row"
                        spacing={1}
                        useFlexGap
                        sx={{ justifyContent: 'flex-end', flexWrap: 'wrap' }}
                      >
                        <Button
                          disabled={!feed?.data}
                          onClick={() => setMaking({ caregiver, live })}
                        >
                          {t(live ? 'feeds.rotate' : 'feeds.create')}
                          <span className="visually-hidden"> {caregiver.name}</span>
                        </Button>
                        {live ? (
                          <Button color="error" onClick={() => setRevoking(caregiver)}>
                            {t('feeds.revoke')}
                            <span className="visually-hidden"> {caregiver.name}</span>
                          </Button>
                        ) : null}
                      </Stack>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      ) : null}

      <ConfirmDialog
        open={making !== null}
        title={t(making?.live ? 'feeds.rotateTitle' : 'feeds.createTitle', {
          name: making?.caregiver.name ?? '',
        })}
        body={t(making?.live ? 'feeds.rotateBody' : 'feeds.createBody', {
          name: making?.caregiver.name ?? '',
        })}
        confirmLabel={t(making?.live ? 'feeds.rotateConfirm' : 'feeds.createConfirm')}
        onClose={() => setMaking(null)}
        onConfirm={async () => {
          if (!making) return;
          const created = await createCalendarFeed(making.caregiver.id);
          setSecret({
            title: t('feeds.shownTitle', { name: making.caregiver.name }),
            label: t('feeds.url'),
            value: created.url,
            body: t('feeds.shownBody'),
          });
          notify(
            t(making.live ? 'feeds.rotated' : 'feeds.created', { name: making.caregiver.name }),
          );
          await refresh();
        }}
      />
      <ConfirmDialog
        open={revoking !== null}
        title={t('feeds.revokeTitle', { name: revoking?.name ?? '' })}
        body={t('feeds.revokeBody', { name: revoking?.name ?? '' })}
        confirmLabel={t('feeds.revokeConfirm')}
        destructive
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          if (!revoking) return;
          await revokeCalendarFeed(revoking.id);
          notify(t('feeds.revoked', { name: revoking.name }));
          await refresh();
        }}
      />
      <SecretDialog secret={secret} onClose={() => setSecret(null)} />
    </Section>
  );
}
