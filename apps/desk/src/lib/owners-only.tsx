import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Page } from './page';
import { useClinic } from './session';

/**
 * An owners-only page (set-up, staff, keys): front desk reaching it by its address reads why it
 * is closed to them instead of a blank page or a 403 from its first call. The server refuses
 * their calls anyway; this only keeps the page from making them.
 */
export function OwnersOnly({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { isOwner } = useClinic();
  if (isOwner) return children;
  return (
    <Page title={t('ownersOnly.title')} width="md">
      <Alert severity="info" sx={{ mb: 2 }}>
        {t('ownersOnly.body')}
      </Alert>
      <Button component={RouterLink} to="/" variant="contained">
        {t('ownersOnly.home')}
      </Button>
    </Page>
  );
}
