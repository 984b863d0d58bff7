import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { StaffSession } from '@marpe/shared';
import { SESSION_ENDED, sessionEvents } from '../../lib/api';
import { sessionQueryKey } from '../../lib/session';
import { SignInForm } from '../../features/sign-in/components/sign-in-form';

/**
 * When a call finds the session over (an hour idle, 12 hours, signed out elsewhere), the member
 * signs in again here, over the page: what they were typing stays where it was, to be sent again.
 */
export function SessionEndedDialog() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  useEffect(() => {
    const show = () => setOpen(true);
    sessionEvents.addEventListener(SESSION_ENDED, show);
    return () => sessionEvents.removeEventListener(SESSION_ENDED, show);
  }, []);

  function signedIn(session: StaffSession) {
    const before = queryClient.getQueryData<StaffSession | null>(sessionQueryKey);
    queryClient.setQueryData(sessionQueryKey, session);
    setOpen(false);
    if (before && before.account.id !== session.account.id) {
      // Someone else signed in: nothing of the previous member's page is theirs.
      queryClient.clear();
      queryClient.setQueryData(sessionQueryKey, session);
      void navigate('/', { replace: true });
      return;
    }
    void queryClient.invalidateQueries({
      predicate: (query) => query.queryKey[0] !== sessionQueryKey[0],
    });
  }

  return (
    <Dialog open={open} aria-labelledby="session-ended-title" maxWidth="xs" fullWidth>
      <DialogContent>
        <DialogContentText id="session-ended-title" sx={{ mb: 2 }}>
          {t('sessionEnded')}
        </DialogContentText>
        {open ? <SignInForm onSignedIn={signedIn} /> : null}
      </DialogContent>
    </Dialog>
  );
}
