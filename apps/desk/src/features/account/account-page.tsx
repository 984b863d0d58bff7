import KeyIcon from '../../lib/icons/key';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { passkeyNameSchema, type StaffPasskey } from '@marpe/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../lib/confirm-dialog';
import { errorText, validate } from '../../lib/field-errors';
import { useNotify } from '../../lib/notify';
import { Page } from '../../lib/page';
import { formatPhone } from '../../lib/format';
import { sessionQueryKey, useClinic } from '../../lib/session';
import {
  addPasskey,
  listPasskeys,
  passkeysQueryKey,
  removePasskey,
  reportEndedSession,
  signOutEverywhere,
} from './api/passkeys';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper component="section" aria-label={title} sx={{ p: 3 }}>
      <Typography variant="h2" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

const dateTime = (language: string, iso: string) =>
  new Intl.DateTimeFormat(language === 'en' ? 'en-GB' : 'he-IL', {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(iso));

/** `/desk/account`: who I am, my passkeys, my sessions. */
export function AccountPage() {
  const { t, i18n } = useTranslation('account');
  const { session } = useClinic();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const notify = useNotify();
  const passkeys = useQuery({ queryKey: passkeysQueryKey, queryFn: listPasskeys });
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<StaffPasskey | null>(null);
  const [everywhere, setEverywhere] = useState(false);
  useEffect(() => reportEndedSession(queryClient, passkeys.error), [queryClient, passkeys.error]);

  return (
    <Page title={t('title')} width="md">
      <Stack spacing={3}>
        <Section title={t('me.title')}>
          <Typography>{session.account.name}</Typography>
          <Typography>
            <bdi>{formatPhone(session.account.phone)}</bdi>
          </Typography>
          <List dense aria-label={t('me.clinics')}>
            {session.memberships.map((m) => (
              <ListItem key={m.clinic_id} disableGutters>
                <ListItemText primary={m.clinic_name} secondary={t(`common:roles.${m.role}`)} />
              </ListItem>
            ))}
          </List>
        </Section>

        <Section title={t('passkeys.title')}>
          <Typography sx={{ mb: 2 }}>{t('passkeys.intro')}</Typography>
          {passkeys.isError ? <Alert severity="error">{errorText(t, passkeys.error)}</Alert> : null}
          {passkeys.data && passkeys.data.length > 0 ? (
            <List aria-label={t('passkeys.list')}>
              {passkeys.data.map((passkey) => (
                <ListItem
                  key={passkey.id}
                  disableGutters
                  secondaryAction={
                    <Button color="error" onClick={() => setRemoving(passkey)}>
                      {t('passkeys.remove')}
                      <span className="visually-hidden"> {passkey.name}</span>
                    </Button>
                  }
                >
                  <ListItemText
                    primary={passkey.name}
                    secondary={
                      passkey.last_used_at
                        ? t('passkeys.lastUsed', {
                            date: dateTime(i18n.language, passkey.last_used_at),
                          })
                        : t('passkeys.added', { date: dateTime(i18n.language, passkey.created_at) })
                    }
                  />
                </ListItem>
              ))}
            </List>
          ) : passkeys.data ? (
            <Typography sx={{ mb: 2 }}>{t('passkeys.none')}</Typography>
          ) : null}
          <Button variant="contained" startIcon={<KeyIcon />} onClick={() => setAdding(true)}>
            {t('passkeys.add')}
          </Button>
        </Section>

        <Section title={t('sessions.title')}>
          <Typography>
            {t('sessions.current', {
              method: t(`sessions.method.${session.method}`),
              end: dateTime(i18n.language, session.expires_at),
              idle: session.idle_timeout_minutes,
            })}
          </Typography>
          <Button
            variant="outlined"
            color="error"
            sx={{ mt: 2 }}
            onClick={() => setEverywhere(true)}
          >
            {t('sessions.everywhere')}
          </Button>
        </Section>
      </Stack>

      <AddPasskeyDialog
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={(passkey) => {
          void queryClient.invalidateQueries({ queryKey: passkeysQueryKey });
          void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
          notify(t('passkeys.addedNote', { name: passkey.name }));
        }}
      />
      <ConfirmDialog
        open={removing !== null}
        title={t('passkeys.removeTitle')}
        body={t('passkeys.removeBody', { name: removing?.name ?? '' })}
        confirmLabel={t('passkeys.remove')}
        destructive
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          if (!removing) return;
          await removePasskey(removing.id).catch((error: unknown) => {
            reportEndedSession(queryClient, error);
            throw error;
          });
          await queryClient.invalidateQueries({ queryKey: passkeysQueryKey });
          notify(t('passkeys.removedNote', { name: removing.name }));
        }}
      />
      <ConfirmDialog
        open={everywhere}
        title={t('sessions.everywhereTitle')}
        body={t('sessions.everywhereBody')}
        confirmLabel={t('sessions.everywhere')}
        destructive
        onClose={() => setEverywhere(false)}
        onConfirm={async () => {
          await signOutEverywhere().catch((error: unknown) => {
            reportEndedSession(queryClient, error);
            throw error;
          });
          // Forget the session first: nothing refetched on the way out reads as a session ended.
          queryClient.setQueryData(sessionQueryKey, null);
          queryClient.removeQueries({
            predicate: (query) => query.queryKey[0] !== sessionQueryKey[0],
          });
          void navigate('/sign-in', { replace: true });
        }}
      />
    </Page>
  );
}

function AddPasskeyDialog({
  open,
  onClose,
  onAdded,
}: {
  open: boolean;
  onClose: () => void;
  onAdded: (passkey: StaffPasskey) => void;
}) {
  const { t } = useTranslation('account');
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const add = useMutation({
    mutationFn: addPasskey,
    onError: (error) => reportEndedSession(queryClient, error),
  });
  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = validate(t, passkeyNameSchema, name);
    if (checked.errors) {
      setNameError(Object.values(checked.errors)[0] ?? null);
      return;
    }
    setNameError(null);
    try {
      onAdded(await add.mutateAsync(checked.data));
      setName('');
      onClose();
    } catch {
      // Said below from add.error; the typed name stays.
    }
  }
  const cancelled = add.error instanceof Error && add.error.name === 'NotAllowedError';
  return (
    <Dialog
      open={open}
      onClose={add.isPending ? undefined : onClose}
      aria-labelledby="add-passkey-title"
      slotProps={{ transition: { onExited: () => add.reset() } }}
    >
      <form noValidate onSubmit={(e) => void submit(e)}>
        <DialogTitle id="add-passkey-title">{t('passkeys.addTitle')}</DialogTitle>
        <DialogContent>
          <Typography sx={{ mb: 2 }}>{t('passkeys.addIntro')}</Typography>
          <TextField
            label={t('passkeys.name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={nameError !== null}
            helperText={nameError ?? t('passkeys.nameHelp')}
            required
            autoFocus
            sx={{ mt: 1 }}
          />
          {add.isError ? (
            <Alert severity={cancelled ? 'info' : 'error'} sx={{ mt: 2 }}>
              {cancelled ? t('passkeys.cancelled') : errorText(t, add.error)}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={add.isPending}>
            {t('common:cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={add.isPending}>
            {t('passkeys.create')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
