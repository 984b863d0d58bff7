import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { visuallyHidden } from '../../../lib/text-runs';

/** Past two minutes the wait reads in minutes: "3600 seconds" says nothing. */
const secondsUpTo = 120;

/**
 * How long until another code may be asked for (a 429 with its time), counting down on screen.
 * It sits in the step's alert, which a screen reader announces as it changes: the seconds that
 * tick are hidden from it, and it reads the wait once, as the server gave it.
 */
export function WaitMessage({
  seconds,
  announced,
  onReturnToCode,
}: {
  seconds: number;
  announced: number;
  /**
   * The code sent before the patient went back is still valid on the server: a way back to type
   * it, rather than waiting for a new one.
   */
  onReturnToCode?: () => void;
}) {
  const { t } = useTranslation();
  const text = (left: number) =>
    left > secondsUpTo
      ? t('patientAuth.waitMinutes', { count: Math.ceil(left / 60) })
      : t('patientAuth.waitSeconds', { count: left });
  return (
    <>
      <span aria-hidden="true">{text(seconds)}</span>
      <span style={visuallyHidden}>{text(announced)}</span>
      {onReturnToCode && (
        <Button
          variant="outlined"
          color="inherit"
          onClick={onReturnToCode}
          sx={{ display: 'flex', mt: 1.5 }}
        >
          {t('patientAuth.typeSentCode')}
        </Button>
      )}
    </>
  );
}
