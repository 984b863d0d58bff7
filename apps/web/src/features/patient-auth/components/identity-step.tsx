import Link from '@mui/material/Link';
import { useTheme } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { telHref } from '../../../lib/clinic/tel-href';
import { TextField } from '../../../lib/text-field';
import type { FieldError, StepError } from '../verification-rules';
import { StepForm } from './step-form';
import { WaitMessage } from './wait-message';

export interface IdentityValues {
  idNumber: string;
  phone: string;
}

interface IdentityStepProps {
  title: string;
  values: IdentityValues;
  /** The errors to show now (after a blur with a value, or an attempt to continue). */
  errors: Record<keyof IdentityValues, FieldError | null>;
  /**
   * The invalid_phone hint (docs/product/login.md#rules), shown under the phone until the ID
   * changes.
   */
  hint: string | null;
  ids: Record<keyof IdentityValues, string>;
  canSubmit: boolean;
  busy: boolean;
  error: StepError | null;
  /** Seconds until another code may be asked for (a 429 with its time), and as first said. */
  wait: { seconds: number; announced: number } | null;
  /** Back to the code step with the code sent before, still valid (shown with the wait). */
  onReturnToCode?: () => void;
  /** The clinic takes no new patients and these details are not a patient's (ADR 006). */
  notAcceptingNewPatients: boolean;
  clinicPhone: string | null;
  onChange: (field: keyof IdentityValues, value: string) => void;
  onBlur: (field: keyof IdentityValues) => void;
  onSubmit: () => void;
}

/** Step 1: ID number and phone. */
export function IdentityStep({
  title,
  values,
  errors,
  hint,
  ids,
  canSubmit,
  busy,
  error,
  wait,
  onReturnToCode,
  notAcceptingNewPatients,
  clinicPhone,
  onChange,
  onBlur,
  onSubmit,
}: IdentityStepProps) {
  const { t } = useTranslation();
  const theme = useTheme();

  let message: ReactNode = error ? t(error) : null;
  let severity: 'error' | 'warning' | 'info' = 'error';
  if (wait) {
    message = <WaitMessage {...wait} onReturnToCode={onReturnToCode} />;
    severity = 'warning';
  } else if (notAcceptingNewPatients) {
    message = (
      <>
        {t('patientAuth.notAcceptingNewPatients')}
        {clinicPhone && (
          <>
            {' '}
            <Link href={telHref(clinicPhone)} color="inherit" sx={{ fontWeight: 500 }}>
              {t('clinic.call')}
            </Link>
          </>
        )}
      </>
    );
  } else if (hint && !error) {
    // The ID number is the clinic's with another phone (the hint under the phone field says
    // so): the way on is to correct the details, or to call the clinic, whose number shows.
    severity = 'info';
    message = clinicPhone ? (
      <>
        {t('patientAuth.mismatchNextStep')}{' '}
        <Link href={telHref(clinicPhone)} dir="ltr" color="inherit" sx={{ fontWeight: 500 }}>
          {clinicPhone}
        </Link>
      </>
    ) : (
      t('patientAuth.mismatchFix')
    );
  }

  const phoneMessage = errors.phone
    ? t(errors.phone, { hint })
    : hint
      ? t('errors.invalid_phone', { hint })
      : null;

  return (
    <StepForm
      title={title}
      submitLabel={t('patientAuth.continue')}
      canSubmit={canSubmit && wait === null}
      busy={busy}
      onSubmit={onSubmit}
      errorSeverity={severity}
      error={message}
    >
      <TextField
        id={ids.idNumber}
        // Names carry what was typed before the app took over the page (lib/typed-before-app.ts).
        name="idNumber"
        label={t('patientAuth.idNumber')}
        value={values.idNumber}
        onChange={(event) => onChange('idNumber', event.target.value)}
        onBlur={() => onBlur('idNumber')}
        required
        fullWidth
        error={errors.idNumber !== null}
        helperText={errors.idNumber ? t(errors.idNumber) : undefined}
        slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off' } }}
      />
      <TextField
        id={ids.phone}
        name="phone"
        label={t('patientAuth.phone')}
        type="tel"
        value={values.phone}
        onChange={(event) => onChange('phone', event.target.value)}
        onBlur={() => onBlur('phone')}
        required
        fullWidth
        error={errors.phone !== null}
        helperText={phoneMessage}
        // The hint arrives from the server: focus then moves here, and the field describes it.
        slotProps={{
          htmlInput: {
            autoComplete: 'tel',
            // '+972 50…' keeps its order on the Hebrew page, aligned with the other fields.
            dir: 'ltr',
            style: { textAlign: theme.direction === 'rtl' ? 'right' : 'left' },
          },
        }}
      />
    </StepForm>
  );
}
