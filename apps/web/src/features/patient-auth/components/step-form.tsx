import ArrowBackIcon from '../../../lib/icons/arrow-back';
import ArrowForwardIcon from '../../../lib/icons/arrow-forward';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { useId, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { visuallyHidden } from '../../../lib/text-runs';

interface StepFormProps {
  title: string;
  submitLabel: string;
  /**
   * The submit button is enabled only then (docs/product/login.md#steps): before, it is
   * `aria-disabled` and looks disabled, and a tap on it or Enter reports what is missing.
   */
  canSubmit: boolean;
  busy: boolean;
  /** Validates (showing every field's error when something is missing) and goes on. */
  onSubmit: () => void;
  onBack?: () => void;
  /** A message about the whole step, announced as it appears. */
  error?: ReactNode;
  /**
   * `warning` for a wait (the theme's one colour for waiting), not a failure; `info` for the way
   * on from a problem a field already names.
   */
  errorSeverity?: 'error' | 'warning' | 'info';
  errorId?: string;
  children: ReactNode;
  /** After the buttons: the code step's resend button. */
  footer?: ReactNode;
}

/**
 * One step of the verification form: its heading, fields, a message and the back and submit
 * buttons. The submit button is never `disabled`: the browser drops a tap on a disabled button
 * without a trace, so a patient who typed before the app had started (the HTML cannot check the
 * fields) would tap it and get nothing, and the waking script could not hold the tap for the app
 * (never a dead tap: ADR 033, ADR 036). Until the fields are valid it is `aria-disabled` (announced
 * as unavailable, still focusable) and looks disabled; a tap or Enter then shows the fields'
 * errors.
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

  return (
    <Box
      component="form"
      noValidate
      aria-labelledby={headingId}
      onSubmit={submit}
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
          aria-disabled={!canSubmit || undefined}
          aria-busy={busy || undefined}
          endIcon={busy ? <CircularProgress size={18} color="inherit" aria-hidden /> : undefined}
          sx={{
            minWidth: { sm: 160 },
            marginInlineStart: { sm: 'auto' },
            // MUI's own disabled look, which it gives only to `disabled`.
            '&[aria-disabled="true"]': {
              color: 'action.disabled',
              bgcolor: 'action.disabledBackground',
              boxShadow: 'none',
            },
          }}
        >
          {submitLabel}
        </Button>
      </Box>
      {footer}
    </Box>
  );
}
