import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { createApiKeyBodySchema, type CreatedApiKey } from '@marpe/shared';
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  errorText,
  serverFieldErrors,
  validate,
  type FieldErrors,
} from '../../../lib/field-errors';
import { useNotify } from '../../../lib/notify';
import { createApiKey } from '../api/api-keys';
import { ShownOnce } from './shown-once';

/** Names a new API key, then shows the key this once. */
export function CreateKeyDialog({
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
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const create = useMutation({ mutationFn: createApiKey });

  function reset() {
    setName('');
    setErrors({});
    setCreated(null);
    create.reset();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = validate(t, createApiKeyBodySchema, { name });
    if (checked.errors) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    try {
      const key = await create.mutateAsync(checked.data);
      setCreated(key);
      notify(t('keys.created', { name: key.name }));
      onCreated();
    } catch (failure) {
      // A 400 names its field; anything else is said below the form. The name typed stays.
      setErrors(serverFieldErrors(t, failure) ?? {});
    }
  }

  const formFailure =
    create.isError && serverFieldErrors(t, create.error) === null
      ? errorText(t, create.error)
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
      {created ? (
        <ShownOnce
          titleId={`${id}-title`}
          onClose={onClose}
          secret={{
            title: t('keys.shownTitle'),
            label: t('keys.key'),
            value: created.key,
            body: t('keys.shownBody', { name: created.name }),
          }}
        />
      ) : (
        <form noValidate onSubmit={(e) => void submit(e)}>
          <DialogTitle id={`${id}-title`}>{t('keys.createTitle')}</DialogTitle>
          <DialogContent>
            <Stack spacing={2}>
              <Typography>{t('keys.createIntro')}</Typography>
              <TextField
                label={t('keys.name')}
                value={name}
                onChange={(e) => setName(e.target.value)}
                error={errors.name !== undefined}
                helperText={errors.name ?? t('keys.nameHelp')}
                autoComplete="off"
                required
                autoFocus
                slotProps={{ htmlInput: { maxLength: 100 } }}
              />
              {formFailure ? <Alert severity="error">{formFailure}</Alert> : null}
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose} disabled={create.isPending}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" variant="contained" loading={create.isPending}>
              {t('keys.createSubmit')}
            </Button>
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
}
