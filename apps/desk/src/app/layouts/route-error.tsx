import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { errorText } from '../../lib/field-errors';

/** A page that failed to load (its code, or its first call): say so and offer to try again. */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  return (
    <Container component="main" maxWidth="sm" sx={{ py: 6 }}>
      <Stack spacing={2}>
        <Typography variant="h1">{t('routeError.title')}</Typography>
        <Alert severity="error">{errorText(t, error)}</Alert>
        <Button variant="contained" onClick={() => window.location.reload()}>
          {t('routeError.reload')}
        </Button>
      </Stack>
    </Container>
  );
}
