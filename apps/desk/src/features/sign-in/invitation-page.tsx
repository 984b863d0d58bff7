import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ApiError } from '../../lib/api';
import { errorText } from '../../lib/field-errors';
import { sessionQueryKey } from '../../lib/session';
import { getInvitation } from './api/sign-in';
import { SignInForm } from './components/sign-in-form';
import { SignedOutFrame } from './components/signed-out-frame';

/** `/desk/invite/:token`: who invites whom to what, then the code that accepts it. */
export function InvitationPage() {
  const { t } = useTranslation('sign-in');
  const { token = '' } = useParams();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const invitation = useQuery({
    queryKey: ['invitation', token],
    queryFn: () => getInvitation(token),
    retry: false,
  });
  useEffect(() => {
    document.title = `${t('invitation.title')} · ${t('common:app.name')}`;
  }, [t]);

  let body;
  if (invitation.isPending) {
    body = <CircularProgress aria-label={t('common:loading')} />;
  } else if (invitation.isError) {
    const ended = invitation.error instanceof ApiError && invitation.error.status === 404;
    body = (
      <Stack spacing={2}>
        <Typography variant="h1">{t('invitation.title')}</Typography>
        <Alert severity={ended ? 'warning' : 'error'}>
          {ended ? t('invitation.ended') : errorText(t, invitation.error)}
        </Alert>
      </Stack>
    );
  } else {
    const view = invitation.data;
    body = (
      <Stack spacing={3}>
        <Stack spacing={1}>
          <Typography variant="h1">{t('invitation.title')}</Typography>
          <Typography>
            {t('invitation.intro', {
              name: view.name,
              clinic: view.clinic_name,
              role: t(`common:roles.${view.role}`),
            })}
          </Typography>
        </Stack>
        <SignInForm
          source={{ kind: 'invitation', token, phoneHint: view.phone_hint }}
          onSignedIn={(session) => {
            queryClient.setQueryData(sessionQueryKey, session);
            void navigate('/', { replace: true });
          }}
        />
      </Stack>
    );
  }
  return (
    <SignedOutFrame>
      <Paper sx={{ p: { xs: 3, sm: 4 } }}>{body}</Paper>
    </SignedOutFrame>
  );
}
