import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Page } from '../../lib/page';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('notFound.title')} width="md">
      <Typography sx={{ mb: 2 }}>{t('notFound.body')}</Typography>
      <Button component={RouterLink} to="/" variant="contained">
        {t('notFound.home')}
      </Button>
    </Page>
  );
}
