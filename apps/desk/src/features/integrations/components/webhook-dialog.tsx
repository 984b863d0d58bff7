import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  createWebhookEndpointBodySchema,
  webhookEventTypes,
  type WebhookEndpointWithSecret,
  type WebhookEventType,
} from '@marpe/shared';
import { useMutation } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api';
import {
  errorText,
  serverFieldErrors,
  validate,
  type FieldErrors,
} from '../../../lib/field-errors';
import { useNotify } from '../../../lib/notify';
import { createWebhook } from '../api/webhooks';
import { ShownOnce } from './shown-once';

/** The server's words about a refused address (webhook-url.ts), in the reader's language. */
const urlProblems: [RegExp, string][] = [
  [/^Expected an absolute URL/, 'webhooks.urlErrors.absolute'],
  [/^Expected an https URL/, 'webhooks.urlErrors.https'],
  [/^Expected an http or https URL/, 'webhooks.urlErrors.scheme'],
  [/^Must not hold a user name or password/, 'webhooks.urlErrors.credentials'],
  [/^Must be a public address/, 'webhooks.urlErrors.public'],
];

function fieldErrorsOfFailure(t: TFunction, failure: unknown): FieldErrors | null {
  const errors = serverFieldErrors(t, failure);
  if (errors === null || !(failure instanceof ApiError)) return errors;
  const url = failure.issues.find((issue) => issue.path === 'url');
  const known = url ? urlProblems.find(([pattern]) => pattern.test(url.message)) : undefined;
  return known ? { ...errors, url: t(known[1]) } : errors;
}

/** Adds an endpoint: its URL and the events it receives; then shows its signing secret once. */
export function WebhookDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: () => void;
}) {
  const { t } = useTranslation('integrations');
  const id = useId();
  const notify = useNotify();
  const [url, setUrl] = useState('');
  const [allEvents, setAllEvents] = useState(true);
  const [events, setEvents] = useState<WebhookEventType[]>([]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [created, setCreated] = useState<WebhookEndpointWithSecret | null>(null);
  const create = useMutation({ mutationFn: createWebhook });

  function reset() {
    setUrl('');
    setAllEvents(true);
    setEvents([]);
    setErrors({});
    setCreated(null);
    create.reset();
  }

  function toggle(type: WebhookEventType, on: boolean) {
    setEvents((chosen) => (on ? [...chosen, type] : chosen.filter((each) => each !== type)));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const body = { url: url.trim(), events: allEvents ? [] : events };
    const checked = validate(t, createWebhookEndpointBodySchema, body);
    const found: FieldErrors = { ...checked.errors };
    // An empty list means every event: choosing "some" and none would say the opposite.
    if (!allEvents && events.length === 0) found.events = t('webhooks.eventsRequired');
    if (Object.keys(found).length > 0) {
      setErrors(found);
      return;
    }
    setErrors({});
    try {
      const endpoint = await create.mutateAsync(body);
      setCreated(endpoint);
      notify(t('webhooks.created'));
      onCreated();
    } catch (failure) {
      setErrors(fieldErrorsOfFailure(t, failure) ?? {});
    }
  }

  const formFailure =
    create.isError && serverFieldErrors(t, create.error) === null
      ? create.error instanceof ApiError && create.error.status === 409
        ? t('webhooks.tooMany')
        : errorText(t, create.error)
      : null;

  return (
    <Dialog
      open={open}
      onClose={create.isPending ? undefined : onClose}
      aria-labelledby={`${id}-title`}
      maxWidth="sm"
      fullWidth
      slotProps={{ transition: { onExited: reset } }}
    >
      {created?.secret ? (
        <ShownOnce
          titleId={`${id}-title`}
          onClose={onClose}
          secret={{
            title: t('webhooks.shownTitle'),
            label: t('webhooks.secret'),
            value: created.secret,
            body: t('webhooks.shownBody'),
          }}
        />
      ) : (
        <form noValidate onSubmit={(e) => void submit(e)}>
          <DialogTitle id={`${id}-title`}>{t('webhooks.createTitle')}</DialogTitle>
          <DialogContent>
            <Stack spacing={2}>
              <Typography>{t('webhooks.createIntro')}</Typography>
              <TextField
                label={t('webhooks.url')}
                value={url}
                onChange={(e) => setUrl(e.target.value)}
                error={errors.url !== undefined}
                helperText={errors.url ?? t('webhooks.urlHelp')}
                type="url"
                autoComplete="off"
                required
                autoFocus
                slotProps={{ htmlInput: { dir: 'ltr', spellCheck: false } }}
              />
              <FormControl component="fieldset" error={errors.events !== undefined}>
                <FormLabel component="legend">{t('webhooks.events')}</FormLabel>
                <RadioGroup
                  value={allEvents ? 'all' : 'some'}
                  onChange={(e) => setAllEvents(e.target.value === 'all')}
                  name={`${id}-scope`}
                >
                  <FormControlLabel value="all" control={<Radio />} label={t('webhooks.all')} />
                  <FormControlLabel value="some" control={<Radio />} label={t('webhooks.some')} />
                </RadioGroup>
                {allEvents ? null : (
                  <FormGroup sx={{ ps: 4 }} role="group" aria-label={t('webhooks.someLabel')}>
                    {webhookEventTypes.map((type) => (
                      <FormControlLabel
                        key={type}
                        control={
                          <Checkbox
                            checked={events.includes(type)}
                            onChange={(e) => toggle(type, e.target.checked)}
                          />
                        }
                        label={
                          <span>
                            {t(`eventTypes.${type}`)}{' '}
                            <Typography
                              component="code"
                              variant="body2"
                              color="text.secondary"
                              dir="ltr"
                            >
                              {type}
                            </Typography>
                          </span>
                        }
                      />
                    ))}
                  </FormGroup>
                )}
                {errors.events ? <FormHelperText>{errors.events}</FormHelperText> : null}
              </FormControl>
              {formFailure ? <Alert severity="error">{formFailure}</Alert> : null}
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose} disabled={create.isPending}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" variant="contained" loading={create.isPending}>
              {t('webhooks.createSubmit')}
            </Button>
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
}
