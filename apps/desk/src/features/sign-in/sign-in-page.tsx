import Paper from '@mui/material/Paper';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { sessionQueryKey } from '../../lib/session';
import { SignInForm } from './components/sign-in-form';
import { SignedOutFrame } from './components/signed-out-frame';

/** Where a desk address leads back to after sign-in: only the desk's own paths. */
export function safeNext(next: string | null): string {
  return next && /^\/(?!\/)/.test(next) && !next.startsWith('/sign-in') ? next : '/';
}

export function SignInPage() {
  const { t } = useTranslation('sign-in');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  useEffect(() => {
    document.title = `${t('title')} · ${t('common:app.name')}`;
  }, [t]);
  return (
    <SignedOutFrame>
      <Paper sx={{ p: { xs: 3, sm: 4 } }}>
        <SignInForm
          headingLevel="h1"
          onSignedIn={(session) => {
            queryClient.setQueryData(sessionQueryKey, session);
            void navigate(safeNext(params.get('next')), { replace: true });
          }}
        />
      </Paper>
    </SignedOutFrame>
  );
}
