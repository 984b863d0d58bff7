import type { Patient } from '@marpe/shared';
import { OTP_LENGTH } from '@marpe/shared/rules';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../lib/text-field';
import { useVerificationStore } from '../stores/verification-store';
import { useCountdown } from '../hooks/use-countdown';
import { useWebOtp } from '../hooks/use-web-otp';
import { codeFailure, sendFailure, type StepError } from '../verification-rules';
import { StepForm } from './step-form';

interface CodeStepProps {
  title: string;
  inputId: string;
  /** The last digits of the phone the code went to. */
  phoneEnding: string;
  onBack: () => void;
  onVerified: (patient: Patient) => void;
}

type FocusTarget = 'input' | 'resend' | 'error';

function digitsOf(value: string): string {
  return value.replace(/\D/g, '').slice(0, OTP_LENGTH);
}

function formatCountdown(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * The code step (docs/product/login.md#steps, #errors): a one-time-code input that submits itself
 * once complete, a resend button behind a countdown, and the two-factor errors.
 */
export function CodeStep({ title, inputId, phoneEnding, onBack, onVerified }: CodeStepProps) {
  const { t } = useTranslation();
  const twoFactorToken = useVerificationStore((state) => state.twoFactorToken);
  const resendAt = useVerificationStore((state) => state.verification?.resendAt ?? null);
  const verifyCode = useVerificationStore((state) => state.verifyCode);
  const resendCode = useVerificationStore((state) => state.resendCode);
  // A resend refused for now (429, another tab's code say): the button counts down to its time.
  const [refusedUntil, setRefusedUntil] = useState<number | null>(null);
  const secondsLeft = useCountdown(
    refusedUntil !== null && (resendAt === null || refusedUntil > resendAt)
      ? refusedUntil
      : resendAt,
  );

  const [code, setCode] = useState('');
  const [attempted, setAttempted] = useState(false);
  const [error, setError] = useState<StepError | null>(null);
  // 429: this code may not be tried again; a new one may.
  const [locked, setLocked] = useState(false);
  const [verifying, setVerifying] = useState(false);
  const [sending, setSending] = useState(false);
  const [resent, setResent] = useState(false);
  const [focusRequest, setFocusRequest] = useState<{ target: FocusTarget } | null>(null);
  const focusHandled = useRef<object | null>(null);
  const busy = useRef(false);

  const descriptionId = useId();
  const errorId = useId();
  const resendRef = useRef<HTMLButtonElement>(null);

  const inputDisabled = locked || twoFactorToken === null;
  const canResend = secondsLeft === 0 && !sending;
  const complete = code.length === OTP_LENGTH;
  const fieldError = attempted && !complete ? t('patientAuth.validation.required') : null;

  // A focus request waits for its target to be enabled: the resend button once the countdown
  // has caught up with a dropped token, say.
  useEffect(() => {
    if (!focusRequest || focusHandled.current === focusRequest) return;
    const target = {
      input: document.getElementById(inputId),
      resend: resendRef.current,
      error: document.getElementById(errorId),
    }[focusRequest.target];
    if (!target || (target instanceof HTMLButtonElement && target.disabled)) return;
    if (target instanceof HTMLInputElement && target.disabled) return;
    target.focus();
    focusHandled.current = focusRequest;
  }, [focusRequest, inputDisabled, canResend, inputId, errorId]);
  const setFocusTarget = (target: FocusTarget) => setFocusRequest({ target });

  async function verify(value: string) {
    if (value.length !== OTP_LENGTH) {
      // An incomplete code just flags the field (docs/product/login.md#rules).
      setAttempted(true);
      setFocusTarget('input');
      return;
    }
    if (busy.current || inputDisabled) return;
    busy.current = true;
    setVerifying(true);
    setError(null);
    setResent(false);
    try {
      onVerified(await verifyCode(value));
    } catch (caught) {
      const failure = codeFailure(caught);
      setError(failure.message);
      setCode('');
      setAttempted(false);
      if (failure.lock) {
        setLocked(true);
        setFocusTarget('error');
      } else if (failure.message === 'errors.invalid_two_factor_token') {
        // The token is gone: sending a new code is the way on.
        setFocusTarget('resend');
      } else {
        setFocusTarget('input');
      }
    } finally {
      busy.current = false;
      setVerifying(false);
    }
  }

  async function resend() {
    if (!canResend || busy.current) return;
    busy.current = true;
    setSending(true);
    setCode('');
    setError(null);
    setAttempted(false);
    setResent(false);
    try {
      await resendCode();
      setLocked(false);
      setResent(true);
      setFocusTarget('input');
    } catch (caught) {
      const failure = sendFailure(caught);
      if (failure.kind === 'wait') {
        setRefusedUntil(failure.wait.until);
      } else {
        setError(failure.kind === 'error' ? failure.message : 'patientAuth.sendFailed');
        setFocusTarget('error');
      }
    } finally {
      busy.current = false;
      setSending(false);
    }
  }

  const onCode = (value: string) => {
    const digits = digitsOf(value);
    setCode(digits);
    if (digits.length === OTP_LENGTH && digits !== code) void verify(digits);
  };

  useWebOtp(inputDisabled ? null : twoFactorToken, (otp) => {
    const digits = digitsOf(otp);
    setCode(digits);
    void verify(digits);
  });

  return (
    <StepForm
      title={title}
      submitLabel={t('patientAuth.verify')}
      canSubmit={complete && !inputDisabled}
      busy={verifying}
      onSubmit={() => void verify(code)}
      onBack={onBack}
      error={error ? t(error) : null}
      errorId={errorId}
      footer={
        <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 1 }}>
          <Button
            ref={resendRef}
            variant="text"
            onClick={() => void resend()}
            disabled={!canResend}
            sx={{ marginInlineStart: -1 }}
          >
            {secondsLeft > 0
              ? t('patientAuth.resendIn', { time: formatCountdown(secondsLeft) })
              : t('patientAuth.resend')}
          </Button>
          <Box role="status" sx={{ minHeight: '1.5em' }}>
            {resent && <Typography color="textSecondary">{t('patientAuth.codeResent')}</Typography>}
          </Box>
        </Box>
      }
    >
      <Typography id={descriptionId}>
        {t('patientAuth.codeSentTo', { length: OTP_LENGTH, digits: phoneEnding })}
      </Typography>
      <TextField
        id={inputId}
        label={t('patientAuth.code')}
        value={code}
        onChange={(event) => onCode(event.target.value)}
        disabled={inputDisabled}
        required
        fullWidth
        error={fieldError !== null || error === 'errors.wrong_code'}
        helperText={fieldError}
        slotProps={{
          htmlInput: {
            inputMode: 'numeric',
            autoComplete: 'one-time-code',
            readOnly: verifying,
            'aria-describedby': [
              descriptionId,
              fieldError ? `${inputId}-helper-text` : null,
              error ? errorId : null,
            ]
              .filter(Boolean)
              .join(' '),
            // Digits read left to right even on the Hebrew page.
            dir: 'ltr',
            style: { letterSpacing: '0.3em', textAlign: 'center' },
          },
        }}
      />
    </StepForm>
  );
}
