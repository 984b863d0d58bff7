import CloudDoneOutlinedIcon from '../../../lib/icons/cloud-done-outlined';
import CloudOffOutlinedIcon from '../../../lib/icons/cloud-off-outlined';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormStore, useFormStoreApi } from '../stores/form-store';
import { PatientText } from './patient-language';

/**
 * Where the answers are: saved on the server (quietly shown), on their way, or, with no
 * connection, only in this page, which is said out loud and guarded against closing the page.
 */
export function DraftStatusLine() {
  const { t } = useTranslation();
  const store = useFormStoreApi();
  const status = useFormStore((state) => state.draftStatus);
  const pending = status === 'saving' || status === 'unsaved';

  useEffect(() => {
    if (!pending) return;
    // Answers the closing page can still send (keepalive) go now, without asking; the question
    // is only for those it could lose.
    const warn = (event: BeforeUnloadEvent) => {
      if (!store.getState().saveBeforeHiding()) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [pending, store]);

  return (
    <>
      {/* Saving and saved change with every pause in typing: shown, not announced. */}
      {(status === 'saving' || status === 'saved') && (
        <Typography
          variant="body2"
          color="textSecondary"
          sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}
        >
          {status === 'saved' && <CloudDoneOutlinedIcon fontSize="small" aria-hidden />}
          <PatientText>
            {t(status === 'saved' ? 'intakeForm.draft.saved' : 'intakeForm.draft.saving')}
          </PatientText>
        </Typography>
      )}
      <Box role="status">
        {status === 'unsaved' && (
          <Typography
            variant="body2"
            sx={{ display: 'flex', alignItems: 'center', gap: 0.75, color: 'warning.dark' }}
          >
            <CloudOffOutlinedIcon fontSize="small" aria-hidden />
            <PatientText>{t('intakeForm.draft.unsaved')}</PatientText>
          </Typography>
        )}
      </Box>
    </>
  );
}
