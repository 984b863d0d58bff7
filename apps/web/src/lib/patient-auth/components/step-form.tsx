import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { useId, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { visuallyHidden } from '../../text-runs';

interface StepFormProps {
  title: string;
  submitLabel: string;
  /** The submit button is enabled only then (SPEC § 2); Enter still reports what is missing. */
  canSubmit: boolean;
  busy: boolean;
  /** Validates (showing every field's error when something is missing) and goes on. */
  onSubmit: () => void;
  onBack?: () => void;
  /** A message about the whole step, announced as it appears. */
  error?: ReactNode;
  /** `warning` for a wait (the theme's one colour for waiting), not a failure. */
  errorSeverity?: 'error' | 'warning';
  errorId?: string;
  children: ReactNode;
  /** After the buttons: the code step's resend button. */
  footer?: ReactNode;
}

/**
 * One step of the verification form: its heading, fields, a message and the back and submit
 * buttons. A disabled submit button stops the browser's own Enter-to-submit, so Enter is caught
 * here and shows the fields' errors instead of doing nothing.
 */
export function StepForm({
  title,
  submitLabel,
  canSubmit,
  busy,
  onSubmit,
  onBack,
  error,
  errorSeverity = 'error',
  errorId,
  children,
  footer,
}: StepFormProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const headingId = useId();
  const BackIcon = theme.direction === 'rtl' ? ArrowForwardIcon : ArrowBackIcon;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (
      event.key === 'Enter' &&
      !event.nativeEvent.isComposing &&
      !canSubmit &&
      event.target instanceof HTMLInputElement
    ) {
      event.preventDefault();
      onSubmit();
    }
  };

  return (
    <Box
      component="form"
      noValidate
      aria-labelledby={headingId}
      onSubmit={submit}
      onKeyDown={onKeyDown}
      sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}
    >
      {/* The stepper above shows the step's name; the heading is there to find the step by. */}
      <Typography id={headingId} component="h2" sx={visuallyHidden}>
        {title}
      </Typography>
      {children}
      {error && (
        <Alert id={errorId} severity={errorSeverity} tabIndex={-1}>
          {error}
        </Alert>
      )}
      <Box sx={{ display: 'flex', gap: 1.5, flexDirection: { xs: 'column-reverse', sm: 'row' } }}>
        {onBack && (
          <Button variant="outlined" startIcon={<BackIcon />} onClick={onBack}>
            {t('common.back')}
          </Button>
        )}
        <Button
          type="submit"
          variant="contained"
          size="large"
          disabled={!canSubmit}
          aria-busy={busy || undefined}
          endIcon={busy ? <CircularProgress size={18} color="inherit" aria-hidden /> : undefined}
          sx={{ minWidth: { sm: 160 }, marginInlineStart: { sm: 'auto' } }}
        >
          {submitLabel}
        </Button>
      </Box>
      {footer}
    </Box>
  );
}
