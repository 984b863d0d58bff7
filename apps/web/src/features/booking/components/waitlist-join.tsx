import type { AppointmentType, Caregiver, WaitlistEntry } from '@marpe/shared';
import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { snackbarDefaultMs } from '../../../lib/snackbar';

/** The waitlist's join dialog (the waitlist feature's), handed over by the app. */
export type JoinWaitlistDialogType = ComponentType<{
  open: boolean;
  clinicId: number;
  caregiver: Caregiver;
  /** What to wait for: one type, or the caregiver's types to choose from. */
  appointmentTypes: readonly AppointmentType[];
  timeZone: string;
  onClose: () => void;
  /** Joined: the entry, so the page stops offering to join for the same thing. */
  onJoined: (entry: WaitlistEntry) => void;
}>;

/** Whom the waitlist dialog is for, and the types it offers to wait for. */
interface WaitlistFor {
  caregiver: Caregiver;
  types: AppointmentType[];
}

/**
 * Joining the waitlist from the booking page: whom the dialog is open for, and what the patient
 * joined for on this page, which is offered no second time.
 */
export function useWaitlistJoin() {
  const [waitlistFor, setWaitlistFor] = useState<WaitlistFor | null>(null);
  const [open, setOpen] = useState(false);
  const [joined, setJoined] = useState(false);
  const [waiting, setWaiting] = useState<readonly WaitlistEntry[]>([]);
  return {
    waitlistFor,
    open,
    joined,
    waiting,
    /** Opens the dialog for the caregiver and the types to choose from. */
    offer: (caregiver: Caregiver, types: AppointmentType[]) => {
      setWaitlistFor({ caregiver, types });
      setOpen(true);
    },
    close: () => setOpen(false),
    onJoined: (entry: WaitlistEntry) => {
      setOpen(false);
      setJoined(true);
      setWaiting((entries) => [...entries, entry]);
    },
    hideJoined: () => setJoined(false),
  };
}

/** The waitlist dialog and the message that the patient joined. */
export function WaitlistJoin({
  join,
  clinicId,
  timeZone,
  JoinWaitlistDialog,
}: {
  join: ReturnType<typeof useWaitlistJoin>;
  clinicId: number;
  timeZone: string;
  JoinWaitlistDialog: JoinWaitlistDialogType;
}) {
  const { t } = useTranslation();
  const { waitlistFor } = join;
  return (
    <>
      {waitlistFor && (
        <JoinWaitlistDialog
          // A new one for another caregiver or type: its choices start afresh.
          key={`${waitlistFor.caregiver.id}:${waitlistFor.types.map((tp) => tp.id).join(',')}`}
          open={join.open}
          clinicId={clinicId}
          caregiver={waitlistFor.caregiver}
          appointmentTypes={waitlistFor.types}
          timeZone={timeZone}
          onClose={join.close}
          onJoined={join.onJoined}
        />
      )}
      <Snackbar
        open={join.joined}
        autoHideDuration={snackbarDefaultMs}
        onClose={(_event, reason) => {
          if (reason !== 'clickaway') join.hideJoined();
        }}
      >
        <Alert severity="success" variant="filled" sx={{ width: '100%' }}>
          {t('waitlist.joined')}
        </Alert>
      </Snackbar>
    </>
  );
}
