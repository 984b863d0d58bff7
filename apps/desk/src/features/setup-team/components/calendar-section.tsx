import ExpandMoreIcon from '../../../lib/icons/expand-more';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { CalendarConnectionLink, CalendarProvider, IntegrationCaregiver } from '@marpe/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api';
import { calendarSyncQueryKey, useCalendarSync } from '../../../lib/calendar-sync';
import { ConfirmDialog } from '../../../lib/confirm-dialog';
import { errorText } from '../../../lib/field-errors';
import { useNotify } from '../../../lib/notify';
import { PageLoading } from '../../../lib/page-loading';
import { Section } from '../../../lib/section';
import {
  calendarLinkQueryKey,
  createCalendarConnection,
  deleteCalendarConnection,
} from '../api/calendar-connection';
import { caregiverQueryKey, caregiversQueryKey } from '../api/caregivers';
import {
  calendarOf,
  clinicStamp,
  explanationKey,
  isLive,
  toneOf,
  type CaregiverCalendar,
} from '../calendar-connection';
import { CalendarLinkDialog } from './calendar-link-dialog';

// While a link waits to be used or a first pass runs, the state is asked for often enough to
// show the change within seconds; otherwise a slow refresh keeps "last synced" current.
const WAITING_REFRESH_MS = 4_000;
const IDLE_REFRESH_MS = 60_000;
const DAY_MS = 24 * 60 * 60_000;

/**
 * A failed call in the reader's words: a caregiver gone (404), a server without the provider's
 * client (503), or the API's own code; a 400 also names the fields it refused.
 */
function failureText(t: TFunction, error: unknown): string {
  if (error instanceof ApiError && error.status === 404) return t('caregiver.notFound');
  if (error instanceof ApiError && error.status === 503) return t('calendar.notConfigured');
  const text = errorText(t, error);
  if (!(error instanceof ApiError) || error.issues.length === 0) return text;
  return `${text} (${error.issues.map((issue) => issue.path).join(', ')})`;
}

/**
 * What a disconnect does, said before it is done: the written events stay in the provider's
 * calendar; Google's access is revoked, while Microsoft offers no revocation of one app's token
 * (docs/calendar-sync.md), so the caregiver is told where to remove Marpe themselves.
 */
function disconnectBody(
  t: TFunction,
  calendar: CaregiverCalendar | null,
  byConsent: boolean,
): string {
  const provider = calendar?.provider ?? 'google';
  const body = t('calendar.disconnectBody', { provider: t(`calendar.providerName.${provider}`) });
  if (!byConsent) return body;
  return `${body} ${t(provider === 'microsoft' ? 'calendar.disconnectMicrosoft' : 'calendar.disconnectRevokes')}`;
}

export interface CalendarIdField {
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}

/**
 * The typed calendar id of the caregiver's form. `body` holds it only when changed here: a save
 * never undoes a connection the caregiver made meanwhile by their link, nor one just disconnected.
 */
export function useCalendarIdField(caregiver: IntegrationCaregiver | null) {
  const [baseline, setBaseline] = useState(caregiver?.google_calendar_sync_calendar_id ?? '');
  const [value, setValue] = useState(baseline);
  const typed = value.trim();
  return {
    field: { value, onChange: setValue },
    body:
      typed === baseline.trim()
        ? {}
        : { google_calendar_sync_calendar_id: typed === '' ? null : typed },
    /** After a disconnect the caregiver has no id, and the field says so. */
    reset: () => {
      setBaseline('');
      setValue('');
    },
  };
}

/**
 * A caregiver's Google Calendar: its state in words, a consent link for the caregiver to connect
 * it, disconnecting, and (advanced, where the operator allows the service account) the typed
 * calendar id, saved with the rest of the caregiver's form. A new caregiver (`null`) has no id to
 * connect yet.
 */
export function CalendarSection({
  caregiver,
  timeZone,
  calendarId,
  onDisconnected,
}: {
  caregiver: IntegrationCaregiver | null;
  timeZone: string;
  calendarId: CalendarIdField;
  onDisconnected: () => void;
}) {
  const { t } = useTranslation('setup-team');
  const caregiverId = caregiver?.id ?? 0;
  const link = useQuery({
    queryKey: calendarLinkQueryKey(caregiverId),
    // Nothing to ask: the cache holds the link made last here (set on creation), else nothing.
    queryFn: (): CalendarConnectionLink | null => null,
    enabled: caregiver !== null,
    staleTime: Infinity,
    gcTime: DAY_MS,
  }).data;
  const [refreshMs, setRefreshMs] = useState(IDLE_REFRESH_MS);
  const status = useCalendarSync(caregiver === null ? false : refreshMs);
  const calendar = caregiver ? calendarOf(status.data, caregiver.id) : null;
  const byConsent = calendar?.connection === 'oauth';
  // The clock of the last answer: it moves with every refresh, and keeps rendering pure.
  const linkLive = !byConsent && isLive(link, status.dataUpdatedAt);
  const waiting = linkLive || calendar?.state === 'pending';
  const wanted = waiting ? WAITING_REFRESH_MS : IDLE_REFRESH_MS;
  if (wanted !== refreshMs) setRefreshMs(wanted);

  // Decided once the state is known: it opens the part for a calendar the service account syncs.
  const showAdvanced =
    !status.isPending &&
    !byConsent &&
    (status.data?.service_account_email != null ||
      calendar?.connection === 'service_account' ||
      calendarId.value.trim() !== '' ||
      calendarId.error !== undefined);

  return (
    <Section title={t('calendar.title')} intro={t('calendar.intro')}>
      {caregiver === null ? (
        <Typography>{t('calendar.newCaregiver')}</Typography>
      ) : status.isPending ? (
        <PageLoading />
      ) : status.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" onClick={() => void status.refetch()}>
              {t('calendar.retry')}
            </Button>
          }
        >
          {t('calendar.loadFailed', { error: errorText(t, status.error) })}
        </Alert>
      ) : (
        <Connection
          caregiver={caregiver}
          calendar={calendar}
          serviceAccountEmail={status.data.service_account_email}
          connectProviders={status.data.connect_providers}
          link={linkLive ? (link ?? null) : null}
          timeZone={timeZone}
          onDisconnected={onDisconnected}
        />
      )}
      {showAdvanced ? (
        <ServiceAccountField
          field={calendarId}
          email={status.data?.service_account_email ?? null}
          startOpen={calendar?.connection === 'service_account'}
        />
      ) : null}
    </Section>
  );
}

function Connection({
  caregiver,
  calendar,
  serviceAccountEmail,
  connectProviders,
  link,
  timeZone,
  onDisconnected,
}: {
  caregiver: IntegrationCaregiver;
  calendar: CaregiverCalendar | null;
  serviceAccountEmail: string | null;
  /** The providers this server can make links for (each with its OAuth client). */
  connectProviders: CalendarProvider[];
  /** The live link made last here, when the calendar is not yet connected by consent. */
  link: CalendarConnectionLink | null;
  timeZone: string;
  onDisconnected: () => void;
}) {
  const { t } = useTranslation('setup-team');
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [shown, setShown] = useState<CalendarConnectionLink | null>(null);
  const [asking, setAsking] = useState(false);
  const connectButton = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);
  const state = calendar?.state ?? 'none';
  const byConsent = calendar?.connection === 'oauth';

  const create = useMutation({
    mutationFn: (provider: CalendarProvider) => createCalendarConnection(caregiver.id, provider),
    onSuccess: async (made) => {
      queryClient.setQueryData(calendarLinkQueryKey(caregiver.id), made);
      setShown(made);
      await queryClient.invalidateQueries({ queryKey: calendarSyncQueryKey });
    },
  });

  // The disconnect button leaves with the connection: the keyboard goes on from "connect".
  useEffect(() => {
    if (asking || !refocus.current) return;
    refocus.current = false;
    const frame = requestAnimationFrame(() => connectButton.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [asking]);

  async function disconnect() {
    await deleteCalendarConnection(caregiver.id);
    queryClient.setQueryData(calendarLinkQueryKey(caregiver.id), null);
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: calendarSyncQueryKey }),
      queryClient.invalidateQueries({ queryKey: caregiverQueryKey(caregiver.id) }),
      queryClient.invalidateQueries({ queryKey: caregiversQueryKey, exact: true }),
    ]);
    refocus.current = true;
    onDisconnected();
    notify(t('calendar.disconnected', { name: caregiver.name }));
  }

  const email = serviceAccountEmail ?? t('calendar.serviceAccountEmail');
  // A connected calendar's new link is for its own provider; otherwise one button a provider
  // the server has (Google's alone where it has none: its answer says the server lacks it).
  const offered: CalendarProvider[] =
    byConsent && calendar
      ? [calendar.provider]
      : connectProviders.length > 0
        ? connectProviders
        : ['google'];
  const labelOf = (provider: CalendarProvider) =>
    provider === 'microsoft'
      ? byConsent
        ? t('calendar.newLink')
        : t('calendar.connectMicrosoft')
      : link || byConsent
        ? t('calendar.newLink')
        : t('calendar.connect');
  const troubled = state === 'no_access' || state === 'not_found' || state === 'read_only';

  return (
    <Stack spacing={2}>
      <Alert severity={toneOf(state)} role="status">
        <AlertTitle>{t(`calendar.states.${state}`)}</AlertTitle>
        {calendar ? (
          <Typography variant="body2">{t(`calendar.providerName.${calendar.provider}`)}</Typography>
        ) : null}
        {calendar && !byConsent ? (
          <Typography variant="body2">{t('calendar.throughServiceAccount')}</Typography>
        ) : null}
        {byConsent && calendar.account_email ? (
          <Typography variant="body2">
            {t('calendar.connectedAs')} <bdi dir="ltr">{calendar.account_email}</bdi>
          </Typography>
        ) : null}
        {calendar && calendar.calendar_id !== calendar.account_email ? (
          <Typography variant="body2">
            {t('calendar.calendarId')} <bdi dir="ltr">{calendar.calendar_id}</bdi>
          </Typography>
        ) : null}
        <Typography variant="body2" sx={{ mt: 0.5 }}>
          {t(explanationKey(calendar), { email, error: calendar?.last_error ?? '' })}
        </Typography>
      </Alert>
      {calendar ? (
        <Typography>
          {calendar.last_synced_at
            ? t('calendar.lastSynced', { when: clinicStamp(calendar.last_synced_at, timeZone) })
            : t('calendar.neverSynced')}
        </Typography>
      ) : null}
      {link ? (
        <Typography>
          {t('calendar.linkWaiting', { when: clinicStamp(link.expires_at, timeZone) })}
        </Typography>
      ) : null}
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {offered.map((provider, index) => (
          <Button
            key={provider}
            ref={index === 0 ? connectButton : undefined}
            variant={(byConsent && !troubled) || index > 0 ? 'outlined' : 'contained'}
            loading={create.isPending && create.variables === provider}
            disabled={create.isPending && create.variables !== provider}
            onClick={() => create.mutate(provider)}
          >
            {labelOf(provider)}
          </Button>
        ))}
        {link ? (
          <Button variant="outlined" onClick={() => setShown(link)}>
            {t('calendar.showLink')}
          </Button>
        ) : null}
        {calendar ? (
          <Button variant="outlined" color="error" onClick={() => setAsking(true)}>
            {t('calendar.disconnect')}
          </Button>
        ) : null}
      </Stack>
      {create.isError ? <Alert severity="error">{failureText(t, create.error)}</Alert> : null}
      <CalendarLinkDialog
        link={shown}
        name={caregiver.name}
        timeZone={timeZone}
        onClose={() => setShown(null)}
      />
      <ConfirmDialog
        open={asking}
        title={t('calendar.disconnectTitle', { name: caregiver.name })}
        body={disconnectBody(t, calendar, byConsent)}
        confirmLabel={t('calendar.disconnect')}
        destructive
        onClose={() => setAsking(false)}
        onConfirm={disconnect}
      />
    </Stack>
  );
}

/** The typed calendar id of the service-account path, out of the way of the consent link. */
function ServiceAccountField({
  field,
  email,
  startOpen,
}: {
  field: CalendarIdField;
  email: string | null;
  startOpen: boolean;
}) {
  const { t } = useTranslation('setup-team');
  const id = useId();
  const [open, setOpen] = useState(startOpen);
  return (
    <Accordion
      disableGutters
      variant="outlined"
      // A refused id is shown, never folded away.
      expanded={open || field.error !== undefined}
      onChange={(_event, expanded) => setOpen(expanded)}
      sx={{ mt: 3 }}
    >
      <AccordionSummary
        expandIcon={<ExpandMoreIcon />}
        id={`${id}-summary`}
        aria-controls={`${id}-details`}
      >
        <Typography>{t('calendar.advanced')}</Typography>
      </AccordionSummary>
      <AccordionDetails id={`${id}-details`}>
        <Typography sx={{ mb: 2 }}>
          {t('calendar.advancedIntro', { email: email ?? t('calendar.serviceAccountEmail') })}
        </Typography>
        <TextField
          label={t('calendar.id')}
          value={field.value}
          onChange={(event) => field.onChange(event.target.value)}
          error={field.error !== undefined}
          helperText={field.error ?? t('calendar.help')}
          autoComplete="off"
          fullWidth
          sx={{ maxWidth: 560 }}
          slotProps={{ htmlInput: { dir: 'ltr' } }}
        />
      </AccordionDetails>
    </Accordion>
  );
}
