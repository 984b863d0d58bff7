import type { Patient } from '@marpe/shared';
import { normaliseIdNumber, normaliseIsraeliMobile } from '@marpe/shared/rules';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClinicStore } from '../../../lib/clinic/clinic-store';
import { useSessionStore } from '../../../lib/patient-session/session-store';
import {
  useVerificationStore,
  type PendingVerification,
  type VerificationMode,
} from '../stores/verification-store';
import { CodeStep } from './code-step';
import { IdentityStep, type IdentityValues } from './identity-step';
import { NamesStep, type NameValues } from './names-step';
import { useCountdown } from '../hooks/use-countdown';
import {
  idNumberError,
  loginFailure,
  nameError,
  phoneEnding,
  phoneError,
  sendFailure,
  type FieldError,
  type StepError,
  type Wait,
} from '../verification-rules';

type StepName = 'identity' | 'names' | 'code';
type Values = IdentityValues & NameValues;
type FieldName = keyof Values;

const stepsOf: Record<VerificationMode, StepName[]> = {
  login: ['identity', 'code'],
  signUp: ['identity', 'names', 'code'],
};

export interface VerificationFormProps {
  clinicId: number;
  /** Called once the code was accepted, while the success message shows. */
  onAuthenticated?: (patient: Patient) => void;
}

/**
 * The verification stepper (docs/product/login.md): ID number and phone; a new patient's names; the
 * one-time code. A code already sent (this tab, this clinic) resumes at the code step.
 */
export function VerificationForm({ clinicId, onAuthenticated }: VerificationFormProps) {
  const { t } = useTranslation();
  const patient = useSessionStore((state) => state.patient);
  const login = useVerificationStore((state) => state.login);
  const signUp = useVerificationStore((state) => state.signUp);
  const cancelVerification = useVerificationStore((state) => state.cancelVerification);
  const resumeVerification = useVerificationStore((state) => state.resumeVerification);
  const clinic = useClinicStore((state) => (state.clinic?.id === clinicId ? state.clinic : null));
  const clinicAcceptsNewPatients = useClinicStore((state) => state.isAcceptNewPatients);
  // Unknown until the clinic has loaded; the server then answers for it (403).
  const refusesNewPatients = clinic !== null && !clinicAcceptsNewPatients;

  // Read once: what this tab already sent for this clinic.
  const [resumed] = useState(() => {
    const pending = useVerificationStore.getState().verification;
    return pending?.clinicId === clinicId ? pending : null;
  });
  const [values, setValues] = useState<Values>(() => ({
    idNumber: resumed?.idNumber ?? '',
    phone: resumed?.phone ?? '',
    firstName: resumed?.firstName ?? '',
    lastName: resumed?.lastName ?? '',
  }));
  const [mode, setMode] = useState<VerificationMode>(resumed?.mode ?? 'login');
  const [step, setStep] = useState<StepName>(resumed ? 'code' : 'identity');
  const [hint, setHint] = useState<string | null>(null);
  const [touched, setTouched] = useState<Partial<Record<FieldName, boolean>>>({});
  const [attempted, setAttempted] = useState(false);
  const [stepError, setStepError] = useState<StepError | null>(null);
  const [notAccepting, setNotAccepting] = useState(false);
  // A code was refused for now (429): when another may be asked for; the steps count down to it.
  const [wait, setWait] = useState<Wait | null>(null);
  const waitSeconds = useCountdown(wait?.until ?? null);
  const [busy, setBusy] = useState(false);
  // A second Enter or click before the answer must not send a second code.
  const sending = useRef(false);
  // The code forgotten by going back from the code step (docs/product/login.md#steps). The server
  // still takes it until it expires or a new one replaces it: when a new one is refused for now
  // (429), the patient may go back and type it instead of waiting.
  const droppedCode = useRef<{ verification: PendingVerification; twoFactorToken: string } | null>(
    null,
  );
  const [canReturnToCode, setCanReturnToCode] = useState(false);
  const [focusRequest, setFocusRequest] = useState<{ id: string } | null>(null);

  const baseId = useId();
  const ids = {
    idNumber: `${baseId}-id-number`,
    phone: `${baseId}-phone`,
    firstName: `${baseId}-first-name`,
    lastName: `${baseId}-last-name`,
    code: `${baseId}-code`,
    success: `${baseId}-success`,
  };

  useEffect(() => {
    if (focusRequest) document.getElementById(focusRequest.id)?.focus();
  }, [focusRequest]);
  const focus = (id: string) => setFocusRequest({ id });

  const errors: Record<FieldName, FieldError | null> = {
    idNumber: idNumberError(values.idNumber),
    phone: phoneError(values.phone, hint),
    firstName: nameError(values.firstName),
    lastName: nameError(values.lastName),
  };
  // A field's error shows once it was left with a value, or after an attempt to go on; the hint
  // shows at once.
  const shown = (field: FieldName): FieldError | null => {
    const error = errors[field];
    if (error === 'errors.invalid_phone') return error;
    return touched[field] || attempted ? error : null;
  };

  const goTo = (next: StepName, focusId: string) => {
    setStep(next);
    setAttempted(false);
    setStepError(null);
    focus(focusId);
  };

  const onChange = (field: FieldName, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setStepError(null);
    if (field === 'idNumber' || field === 'phone') setNotAccepting(false);
    // The wait is the phone's (or the patient's): other details may be tried at once.
    if (field === 'idNumber' || field === 'phone') {
      setWait(null);
      setCanReturnToCode(false);
    }
    // The hint belongs to the ID number it was given for (docs/product/login.md#rules).
    if (field === 'idNumber') setHint(null);
  };

  const onBlur = (field: FieldName) => {
    if (values[field].trim() !== '') setTouched((current) => ({ ...current, [field]: true }));
  };

  /**
   * A step's send: its fields checked first (the first wrong one focused), one send at a time and
   * none while a wait runs, the last refusal's notes cleared, the button busy meanwhile.
   */
  const sendStep = async (fields: readonly FieldName[], send: () => Promise<void>) => {
    const invalid = fields.find((field) => errors[field] !== null);
    if (invalid) {
      setAttempted(true);
      focus(ids[invalid]);
      return;
    }
    if (sending.current || waitSeconds > 0) return;
    sending.current = true;
    setBusy(true);
    setStepError(null);
    setWait(null);
    setCanReturnToCode(false);
    try {
      await send();
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };

  const submitIdentity = () =>
    sendStep(['idNumber', 'phone'], async () => {
      setNotAccepting(false);
      try {
        await login({ clinicId, ...values });
        // The new code replaced the one sent before.
        droppedCode.current = null;
        setMode('login');
        goTo('code', ids.code);
      } catch (error) {
        const failure = loginFailure(error);
        if (failure.kind === 'hint') {
          setHint(failure.hint);
          focus(ids.phone);
        } else if (failure.kind === 'wait') {
          refusedForNow(failure.wait);
        } else if (failure.kind === 'error') {
          setStepError(failure.message);
        } else if (refusesNewPatients) {
          setNotAccepting(true);
        } else {
          setMode('signUp');
          goTo('names', ids.firstName);
        }
      }
    });

  const submitNames = () =>
    sendStep(['firstName', 'lastName'], async () => {
      try {
        await signUp({ clinicId, ...values });
        droppedCode.current = null;
        goTo('code', ids.code);
      } catch (error) {
        const failure = sendFailure(error);
        if (failure.kind === 'error') {
          setStepError(failure.message);
        } else if (failure.kind === 'wait') {
          refusedForNow(failure.wait);
        } else {
          // Back to the first step, which explains: the hint, or that the clinic takes no one new.
          setMode('login');
          goTo('identity', failure.kind === 'hint' ? ids.phone : ids.idNumber);
          if (failure.kind === 'hint') setHint(failure.hint);
          else setNotAccepting(true);
        }
      }
    });

  const backFromNames = () => {
    setMode('login');
    goTo('identity', ids.idNumber);
  };

  // Going back from the code step drops the code that was sent (in sign-up mode, the
  // sign-up state); what was typed stays.
  const backFromCode = () => {
    const { verification, twoFactorToken } = useVerificationStore.getState();
    droppedCode.current = verification && twoFactorToken ? { verification, twoFactorToken } : null;
    cancelVerification();
    if (mode === 'signUp') goTo('names', ids.firstName);
    else goTo('identity', ids.idNumber);
  };

  /** A new code refused for now (429): the wait, and the code sent before if it was for these details. */
  function refusedForNow(refusal: Wait) {
    setWait(refusal);
    const dropped = droppedCode.current?.verification;
    setCanReturnToCode(
      dropped !== undefined &&
        dropped.clinicId === clinicId &&
        normaliseIdNumber(dropped.idNumber) === normaliseIdNumber(values.idNumber) &&
        normaliseIsraeliMobile(dropped.phone) === normaliseIsraeliMobile(values.phone),
    );
  }

  const returnToCode = () => {
    const dropped = droppedCode.current;
    if (!dropped) return;
    droppedCode.current = null;
    // The resend button counts down the wait the server has just given.
    resumeVerification(
      { ...dropped.verification, resendAt: wait?.until ?? dropped.verification.resendAt },
      dropped.twoFactorToken,
    );
    setWait(null);
    setCanReturnToCode(false);
    setMode(dropped.verification.mode);
    goTo('code', ids.code);
  };

  const onVerified = (verified: Patient) => {
    focus(ids.success);
    onAuthenticated?.(verified);
  };

  const steps = stepsOf[mode];
  const activeStep = patient ? steps.length : steps.indexOf(step);
  const title = t(`patientAuth.steps.${step}`);

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      <Stepper
        activeStep={activeStep}
        alternativeLabel
        sx={{
          // The step number is dark on the cyan circle (white on it is 2.3:1).
          '& .MuiStepIcon-text': { fill: 'rgba(0, 0, 0, 0.87)' },
        }}
      >
        {steps.map((name, index) => (
          <Step key={name} aria-current={index === activeStep ? 'step' : undefined}>
            <StepLabel>{t(`patientAuth.steps.${name}`)}</StepLabel>
          </Step>
        ))}
      </Stepper>

      {patient ? (
        <Alert id={ids.success} severity="success" role="status" tabIndex={-1}>
          {t('patientAuth.authenticated')}
        </Alert>
      ) : step === 'identity' ? (
        <IdentityStep
          title={title}
          values={values}
          errors={{ idNumber: shown('idNumber'), phone: shown('phone') }}
          hint={hint}
          ids={ids}
          canSubmit={errors.idNumber === null && errors.phone === null}
          busy={busy}
          error={stepError}
          wait={wait && waitSeconds > 0 ? { seconds: waitSeconds, announced: wait.seconds } : null}
          onReturnToCode={canReturnToCode ? returnToCode : undefined}
          notAcceptingNewPatients={notAccepting}
          clinicPhone={clinic?.phone ?? null}
          onChange={onChange}
          onBlur={onBlur}
          onSubmit={() => void submitIdentity()}
        />
      ) : step === 'names' ? (
        <NamesStep
          title={title}
          values={values}
          errors={{ firstName: shown('firstName'), lastName: shown('lastName') }}
          ids={ids}
          canSubmit={errors.firstName === null && errors.lastName === null}
          busy={busy}
          error={stepError}
          wait={wait && waitSeconds > 0 ? { seconds: waitSeconds, announced: wait.seconds } : null}
          onReturnToCode={canReturnToCode ? returnToCode : undefined}
          onChange={onChange}
          onBlur={onBlur}
          onSubmit={() => void submitNames()}
          onBack={backFromNames}
        />
      ) : (
        <CodeStep
          title={title}
          inputId={ids.code}
          phoneEnding={phoneEnding(values.phone)}
          onBack={backFromCode}
          onVerified={onVerified}
        />
      )}
    </Box>
  );
}
