import {
  OTP_LENGTH,
  OTP_RESEND_SECONDS,
  staffSignInBodySchema,
  type StaffSession,
} from '@marpe/shared';
import KeyIcon from '../../../lib/icons/key';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api';
import { errorText, validate } from '../../../lib/field-errors';
import {
  canUsePasskeys,
  requestCode,
  requestInvitationCode,
  signInWithPasskey,
  verifyCode,
} from '../api/sign-in';

type Source = { kind: 'phone' } | { kind: 'invitation'; token: string; phoneHint: string };

/** Seconds until another code may be asked for, from a 429's details. */
const retryAfter = (error: unknown): number | null => {
  if (!(error instanceof ApiError) || error.status !== 429) return null;
  const seconds = (error.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  return typeof seconds === 'number' ? seconds : null;
};

/**
 * The desk's sign-in: a mobile number (or an invitation's), then the 6-digit code sent to it; or a
 * passkey. Calls `onSignedIn` with the new session. Used by the sign-in and invitation pages and
 * by the dialog that signs a member back in where they were when their session ended.
 */
export function SignInForm({
  source = { kind: 'phone' },
  onSignedIn,
  headingLevel = 'h2',
}: {
  source?: Source;
  onSignedIn: (session: StaffSession) => void;
  headingLevel?: 'h1' | 'h2';
}) {
  const { t } = useTranslation('sign-in');
  const id = useId();
  const [phone, setPhone] = useState('');
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const [token, setToken] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [wait, setWait] = useState(0);

  useEffect(() => {
    if (wait <= 0) return;
    const timer = window.setTimeout(() => setWait((s) => s - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [wait]);

  const fail = (error: unknown, setField?: (text: string) => void) => {
    const seconds = retryAfter(error);
    const text =
      seconds !== null ? t('common:errors.tooManyWait', { seconds }) : errorText(t, error);
    if (setField && error instanceof ApiError && error.status === 404) setField(text);
    else setFormError(text);
  };

  async function sendCode(event?: FormEvent) {
    event?.preventDefault();
    setFormError(null);
    let request: () => Promise<{ twoFactorToken: string }>;
    if (source.kind === 'phone') {
      const checked = validate(t, staffSignInBodySchema, { phone });
      if (checked.errors) {
        setPhoneError(checked.errors.phone ?? t('common:validation.invalid'));
        return;
      }
      setPhoneError(null);
      request = () => requestCode({ phone });
    } else {
      request = () => requestInvitationCode(source.token);
    }
    setBusy(true);
    try {
      setToken((await request()).twoFactorToken);
      setCode('');
      setCodeError(null);
      setWait(OTP_RESEND_SECONDS);
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  }

  async function verify(event?: FormEvent, typed = code) {
    event?.preventDefault();
    if (!token) return;
    if (!new RegExp(`^\\d{${OTP_LENGTH}}$`).test(typed)) {
      setCodeError(t('common:validation.code'));
      return;
    }
    setBusy(true);
    setFormError(null);
    try {
      onSignedIn(await verifyCode({ twoFactorToken: token, code: typed }));
    } catch (error) {
      fail(error, setCodeError);
    } finally {
      setBusy(false);
    }
  }

  async function passkey() {
    setFormError(null);
    setBusy(true);
    try {
      onSignedIn(await signInWithPasskey());
    } catch (error) {
      // The person closed the browser's passkey prompt: nothing to say.
      if (error instanceof Error && error.name === 'NotAllowedError') return;
      fail(error);
    } finally {
      setBusy(false);
    }
  }

  const heading = (
    <Typography variant={headingLevel === 'h1' ? 'h1' : 'h2'} component={headingLevel}>
      {source.kind === 'invitation' ? t('invitation.codeTitle') : t('title')}
    </Typography>
  );

  if (token === null) {
    return (
      <Stack
        spacing={2}
        component="form"
        noValidate
        onSubmit={sendCode}
        aria-labelledby={`${id}-h`}
      >
        <div id={`${id}-h`}>{heading}</div>
        {source.kind === 'phone' ? (
          <TextField
            label={t('phone')}
            value={phone}
            onChange={(e) => setPhone(e.target.value)}
            error={phoneError !== null}
            helperText={phoneError ?? t('phoneHelp')}
            type="tel"
            autoComplete="tel-national"
            slotProps={{ htmlInput: { dir: 'ltr', inputMode: 'tel' } }}
            required
            autoFocus
          />
        ) : (
          <Typography>{t('invitation.codeTo', { hint: source.phoneHint })}</Typography>
        )}
        {formError ? <Alert severity="error">{formError}</Alert> : null}
        <Button type="submit" variant="contained" size="large" loading={busy}>
          {t('sendCode')}
        </Button>
        {source.kind === 'phone' && canUsePasskeys() ? (
          <>
            <Divider>{t('or')}</Divider>
            <Button
              variant="outlined"
              size="large"
              startIcon={<KeyIcon />}
              onClick={passkey}
              disabled={busy}
            >
              {t('passkey')}
            </Button>
          </>
        ) : null}
      </Stack>
    );
  }

  return (
    <Stack spacing={2} component="form" noValidate onSubmit={verify} aria-labelledby={`${id}-h`}>
      <div id={`${id}-h`}>{heading}</div>
      <Typography role="status">
        {source.kind === 'phone'
          ? t('codeSent')
          : t('invitation.codeSent', { hint: source.phoneHint })}
      </Typography>
      <TextField
        label={t('code')}
        value={code}
        onChange={(e) => {
          const digits = e.target.value.replace(/\D/g, '').slice(0, OTP_LENGTH);
          setCode(digits);
          setCodeError(null);
          if (digits.length === OTP_LENGTH) void verify(undefined, digits);
        }}
        error={codeError !== null}
        helperText={codeError ?? ' '}
        autoComplete="one-time-code"
        slotProps={{ htmlInput: { dir: 'ltr', inputMode: 'numeric', maxLength: OTP_LENGTH } }}
        required
        autoFocus
      />
      {formError ? <Alert severity="error">{formError}</Alert> : null}
      <Button type="submit" variant="contained" size="large" loading={busy}>
        {t('verify')}
      </Button>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button onClick={() => void sendCode()} disabled={wait > 0 || busy}>
          {wait > 0 ? t('resendIn', { seconds: wait }) : t('resend')}
        </Button>
        {source.kind === 'phone' ? (
          <Button
            onClick={() => {
              setToken(null);
              setFormError(null);
            }}
          >
            {t('otherPhone')}
          </Button>
        ) : null}
      </Stack>
    </Stack>
  );
}
