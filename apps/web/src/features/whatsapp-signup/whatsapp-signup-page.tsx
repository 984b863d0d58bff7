import CheckCircleOutlineIcon from '../../lib/icons/check-circle-outlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ApiError } from '../../lib/api-client';
import { appConfig } from '../../lib/config';
import { completeWhatsAppSignup } from './api/complete-whatsapp-signup';
import { parseSignupMessage } from './embedded-signup';
import { loadMetaSdk, startEmbeddedSignup, type MetaSdk } from './meta-sdk';

const SUPPORT_EMAIL = 'support@marpe.co.il';
const STEPS = ['login', 'portfolio', 'account', 'number', 'verify', 'approve'] as const;
const TIPS = ['noCode', 'numberInUse', 'windowClosed', 'duration'] as const;
/**
 * Meta posts FINISH before FB.login calls back; a code alone for this long means the sign-up
 * ended without a phone number (only an account was chosen), so the page stops waiting.
 */
export const FINISH_WAIT_MS = 10_000;

type Failure = 'cancelled' | 'incomplete' | 'meta' | 'link' | 'generic' | 'unavailable';
type FinishIds = { phoneNumberId: string; wabaId: string; businessId: string };

type View =
  { phase: 'idle' | 'waiting' | 'saving' | 'done' } | { phase: 'failed'; failure: Failure };

/**
 * What Meta's window has reported in the attempt under way. It reports twice, in either order:
 * FB.login's callback with the code, and a FINISH message with the ids.
 */
interface Attempt {
  code: string | null;
  ids: FinishIds | null;
}

function failureOf(error: unknown): Failure {
  if (!(error instanceof ApiError)) return 'generic';
  if (error.status === 400) return 'link';
  if (error.status === 502) return 'meta';
  if (error.status === 503) return 'unavailable';
  return 'generic';
}

type SdkState = { status: 'off' | 'loading' | 'failed' } | { status: 'ready'; sdk: MetaSdk };

/**
 * Meta's SDK, loaded on this page only (the server's CSP allows it here and nowhere else), and
 * not at all when the page cannot be used: no Meta request without a link to connect.
 */
function useMetaSdk(wanted: boolean): SdkState {
  const meta = wanted ? appConfig().meta : null;
  const [state, setState] = useState<SdkState>({ status: meta ? 'loading' : 'off' });
  useEffect(() => {
    if (!meta) return;
    let live = true;
    loadMetaSdk(meta).then(
      (sdk) => live && setState({ status: 'ready', sdk }),
      (error: unknown) => {
        console.error(error);
        if (live) setState({ status: 'failed' });
      },
    );
    return () => {
      live = false;
    };
  }, [meta]);
  return state;
}

/**
 * The WhatsApp sign-up page, /whatsapp-signup/:clientId?
 * (docs/product/connections.md#whatsapp-sign-up).
 */
export function WhatsAppSignupPage() {
  const { t } = useTranslation();
  const { clientId } = useParams();
  const sdk = useMetaSdk(Boolean(clientId));
  const [view, setView] = useState<View>({ phase: 'idle' });
  // Null unless an attempt is waiting for Meta; the server is called once per attempt.
  const attempt = useRef<Attempt | null>(null);

  const fail = useCallback((failure: Failure) => {
    if (!attempt.current) return;
    attempt.current = null;
    setView({ phase: 'failed', failure });
  }, []);

  const received = useCallback(
    (part: Partial<Attempt>) => {
      const current = attempt.current;
      if (!current) return;
      Object.assign(current, part);
      const { code, ids } = current;
      if (code && !ids && part.code) {
        setTimeout(() => {
          if (attempt.current === current) fail('incomplete');
        }, FINISH_WAIT_MS);
      }
      if (!code || !ids || !clientId) return;
      attempt.current = null;
      setView({ phase: 'saving' });
      completeWhatsAppSignup({
        code,
        clientId,
        wabaId: ids.wabaId,
        phoneId: ids.phoneNumberId,
        businessId: ids.businessId,
      }).then(
        () => setView({ phase: 'done' }),
        (error: unknown) => {
          console.error(error);
          setView({ phase: 'failed', failure: failureOf(error) });
        },
      );
    },
    [clientId, fail],
  );

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const message = parseSignupMessage(event);
      if (message?.event === 'finish') {
        const { phoneNumberId, wabaId, businessId } = message;
        received({ ids: { phoneNumberId, wabaId, businessId } });
      } else if (message?.event === 'cancel') {
        fail('cancelled');
      } else if (message?.event === 'error') {
        fail('meta');
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [received, fail]);

  if (view.phase === 'done') {
    return (
      <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 4 }}>
        <CheckCircleOutlineIcon sx={{ fontSize: 72, color: 'success.main' }} />
        <Typography component="h1" variant="h4">
          {t('whatsappSignup.success.heading')}
        </Typography>
        <Typography>{t('whatsappSignup.success.text')}</Typography>
      </Stack>
    );
  }

  const start = () => {
    const meta = appConfig().meta;
    if (sdk.status !== 'ready' || !meta) return;
    attempt.current = { code: null, ids: null };
    setView({ phase: 'waiting' });
    startEmbeddedSignup(sdk.sdk, meta.configId, (code) =>
      // No code: the window was closed (or the permissions refused) before the end.
      code === null ? fail('cancelled') : received({ code }),
    );
  };
  const busy = view.phase === 'waiting' || view.phase === 'saving';
  const unavailable = !appConfig().meta;

  return (
    <Stack spacing={3} sx={{ py: 2 }}>
      <Box>
        <Typography component="h1" variant="h4" gutterBottom>
          {t('whatsappSignup.title')}
        </Typography>
        <Typography>{t('whatsappSignup.intro')}</Typography>
        <Typography sx={{ mt: 1 }}>{t('whatsappSignup.duration')}</Typography>
      </Box>

      <Box component="section" aria-labelledby="wa-steps">
        <Typography id="wa-steps" component="h2" variant="h6" gutterBottom>
          {t('whatsappSignup.stepsHeading')}
        </Typography>
        <Box component="ol" sx={{ m: 0, paddingInlineStart: 3 }}>
          {STEPS.map((step) => (
            <Box component="li" key={step} sx={{ mb: 1.5 }}>
              <Typography component="span" sx={{ fontWeight: 700 }}>
                {t(`whatsappSignup.steps.${step}.title`)}
              </Typography>
              {' – '}
              <Typography component="span">{t(`whatsappSignup.steps.${step}.text`)}</Typography>
            </Box>
          ))}
        </Box>
      </Box>

      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        {!clientId && <Alert severity="info">{t('whatsappSignup.noClientId')}</Alert>}
        {unavailable && <Alert severity="warning">{t('whatsappSignup.unavailable')}</Alert>}
        {!unavailable && sdk.status === 'failed' && (
          <Alert severity="error">{t('whatsappSignup.sdkFailed')}</Alert>
        )}
        <Button
          variant="contained"
          size="large"
          onClick={start}
          disabled={!clientId || sdk.status !== 'ready' || busy}
        >
          {t('whatsappSignup.start')}
        </Button>
        <Box role="status" aria-live="polite">
          {(busy || sdk.status === 'loading') && (
            <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
              <CircularProgress size={20} aria-hidden />
              <Typography>
                {view.phase === 'saving'
                  ? t('whatsappSignup.saving')
                  : busy
                    ? t('whatsappSignup.waiting')
                    : t('whatsappSignup.loadingSdk')}
              </Typography>
            </Stack>
          )}
        </Box>
        {view.phase === 'failed' && (
          <Alert
            severity="error"
            action={
              view.failure === 'link' || view.failure === 'unavailable' ? undefined : (
                <Button color="inherit" size="small" onClick={start}>
                  {t('whatsappSignup.retry')}
                </Button>
              )
            }
          >
            {view.failure === 'unavailable'
              ? t('whatsappSignup.unavailable')
              : t(`whatsappSignup.errors.${view.failure}`)}
          </Alert>
        )}
      </Stack>

      <Box component="section" aria-labelledby="wa-troubleshooting">
        <Typography id="wa-troubleshooting" component="h2" variant="h6" gutterBottom>
          {t('whatsappSignup.troubleshooting.heading')}
        </Typography>
        <Box component="ul" sx={{ m: 0, paddingInlineStart: 3 }}>
          {TIPS.map((tip) => (
            <Box component="li" key={tip} sx={{ mb: 1.5 }}>
              <Typography component="span" sx={{ fontWeight: 700 }}>
                {t(`whatsappSignup.troubleshooting.${tip}.title`)}
              </Typography>
              {' – '}
              <Typography component="span">
                {t(`whatsappSignup.troubleshooting.${tip}.text`)}
              </Typography>
            </Box>
          ))}
        </Box>
      </Box>

      <Typography>
        {t('whatsappSignup.help')}{' '}
        <Link href={`mailto:${SUPPORT_EMAIL}`} dir="ltr">
          {SUPPORT_EMAIL}
        </Link>
      </Typography>
    </Stack>
  );
}
