import ErrorOutlineIcon from '../../lib/icons/error-outlined';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { visuallyHidden } from '../../lib/text-runs';
import { completeShaamAuth } from './api/complete-shaam-auth';

/** Where the page sends the browser; an object so tests can watch it (jsdom cannot navigate). */
export const navigation = {
  replace: (url: string) => window.location.replace(url),
};

/**
 * The Tax Authority callback, /shaam-auth?code&state
 * (docs/product/connections.md#tax-authority-callback): the Tax Authority returns here; the server
 * finishes the connection and names where the clinic asked to go back to.
 */
export function ShaamAuthPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const code = searchParams.get('code') ?? '';
  const state = searchParams.get('state') ?? '';
  const [failed, setFailed] = useState(code === '' || state === '');
  // The state works once: one call per code and state, even when an effect runs twice.
  const sent = useRef<string | null>(null);

  useEffect(() => {
    if (code === '' || state === '') {
      console.error(new Error('The Tax Authority returned without code and state'));
      return;
    }
    const key = `${code} ${state}`;
    if (sent.current === key) return;
    sent.current = key;
    completeShaamAuth(code, state).then(
      (url) => navigation.replace(url),
      (error: unknown) => {
        console.error(error);
        setFailed(true);
      },
    );
  }, [code, state]);

  if (failed) {
    return (
      <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 4 }}>
        <ErrorOutlineIcon sx={{ fontSize: 72, color: 'error.main' }} />
        <Typography component="h1" variant="h4">
          {t('shaamAuth.failedHeading')}
        </Typography>
        <Typography>{t('shaamAuth.failedText')}</Typography>
      </Stack>
    );
  }
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }} aria-busy="true">
      <Typography component="h1" style={visuallyHidden}>
        {t('shaamAuth.title')}
      </Typography>
      <CircularProgress aria-label={t('shaamAuth.loading')} />
    </Box>
  );
}
