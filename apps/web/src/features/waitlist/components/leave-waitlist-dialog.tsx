import { useTranslation } from 'react-i18next';
import type { WaitlistEntry } from '../api/get-waitlist';
import { ConfirmDialog, type ConfirmDialogControls } from '../../../lib/confirm-dialog';

interface LeaveWaitlistDialogProps extends ConfirmDialogControls {
  /** Kept while the dialog fades out, so its text does not vanish first. */
  entry: WaitlistEntry | null;
  onConfirm: (entry: WaitlistEntry) => void;
}

/** Confirm before leaving the waitlist (stay / leave). */
export function LeaveWaitlistDialog({ entry, onConfirm, ...controls }: LeaveWaitlistDialogProps) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      {...controls}
      title={t('waitlist.leaveTitle')}
      text={
        entry && t('waitlist.leaveText', { caregiver: entry.caregiver_name, type: entry.type_name })
      }
      returnLabel={t('waitlist.stay')}
      confirmLabel={t('waitlist.confirmLeave')}
      onConfirm={() => entry && onConfirm(entry)}
    />
  );
}
