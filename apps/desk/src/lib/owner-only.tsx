import Alert from '@mui/material/Alert';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from './page';
import { useClinic } from './session';

/**
 * A page only the clinic's owners use (the set-up): front desk gets the page's title and a word
 * that it is not theirs, rather than a form the server would refuse (it refuses anyway).
 */
export function OwnerOnly({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const { isOwner } = useClinic();
  if (isOwner) return children;
  return (
    <Page title={title} width="md">
      <Alert severity="info">{t('errors.forbidden')}</Alert>
    </Page>
  );
}
