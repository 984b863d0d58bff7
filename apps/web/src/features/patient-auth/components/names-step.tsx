import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../lib/text-field';
import type { FieldError, StepError } from '../verification-rules';
import { StepForm } from './step-form';
import { WaitMessage } from './wait-message';

export interface NameValues {
  firstName: string;
  lastName: string;
}

interface NamesStepProps {
  title: string;
  values: NameValues;
  errors: Record<keyof NameValues, FieldError | null>;
  ids: Record<keyof NameValues, string>;
  canSubmit: boolean;
  busy: boolean;
  error: StepError | null;
  /** Seconds until another code may be asked for (a 429 with its time), and as first said. */
  wait: { seconds: number; announced: number } | null;
  /** Back to the code step with the code sent before, still valid (shown with the wait). */
  onReturnToCode?: () => void;
  onChange: (field: keyof NameValues, value: string) => void;
  onBlur: (field: keyof NameValues) => void;
  onSubmit: () => void;
  onBack: () => void;
}

/** Sign-up step (docs/product/login.md#steps): a new patient's first and last name. */
export function NamesStep({
  title,
  values,
  errors,
  ids,
  canSubmit,
  busy,
  error,
  wait,
  onReturnToCode,
  onChange,
  onBlur,
  onSubmit,
  onBack,
}: NamesStepProps) {
  const { t } = useTranslation();
  return (
    <StepForm
      title={title}
      submitLabel={t('patientAuth.continue')}
      canSubmit={canSubmit && wait === null}
      busy={busy}
      onSubmit={onSubmit}
      errorSeverity={wait ? 'warning' : 'error'}
      onBack={onBack}
      error={
        wait ? <WaitMessage {...wait} onReturnToCode={onReturnToCode} /> : error ? t(error) : null
      }
    >
      <Typography>{t('patientAuth.newPatient')}</Typography>
      {(['firstName', 'lastName'] as const).map((field) => (
        <TextField
          key={field}
          id={ids[field]}
          label={t(`patientAuth.${field}`)}
          value={values[field]}
          onChange={(event) => onChange(field, event.target.value)}
          onBlur={() => onBlur(field)}
          required
          fullWidth
          error={errors[field] !== null}
          helperText={errors[field] ? t(errors[field]) : undefined}
          slotProps={{
            htmlInput: { autoComplete: field === 'firstName' ? 'given-name' : 'family-name' },
          }}
        />
      ))}
    </StepForm>
  );
}
