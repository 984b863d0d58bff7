import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/field-errors';

/**
 * A step form's foot: what went wrong that no field says (a refused call, no connection), or that
 * fields need fixing, and the save button (which also marks the step done).
 */
export function SaveBar({
  busy,
  error,
  invalid,
}: {
  busy: boolean;
  /** The failed call, when no field explains it. */
  error: unknown;
  /** Fields show errors. */
  invalid: boolean;
}) {
  const { t } = useTranslation('setup');
  return (
    <Stack spacing={2} sx={{ mt: 3 }}>
      {error ? <Alert severity="error">{errorText(t, error)}</Alert> : null}
      {invalid && !error ? <Alert severity="error">{t('fixFields')}</Alert> : null}
      <div>
        <Button type="submit" variant="contained" loading={busy}>
          {t('common:save')}
        </Button>
      </div>
    </Stack>
  );
}
