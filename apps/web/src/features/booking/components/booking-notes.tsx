import type { Caregiver } from '@marpe/shared';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Why the chosen caregiver is gone after a type choice (the type rule clears a caregiver who does
 * not offer it), and what to do. A polite live region, there from the start so that screen
 * readers announce what appears in it.
 */
export function DroppedCaregiverNote({
  caregiver,
  typeName,
}: {
  caregiver: Caregiver | null;
  typeName: string | null;
}) {
  const { t } = useTranslation();
  return (
    <Box
      role="status"
      // Empty, it takes no room in the step's column.
      sx={{ '&:empty': { mt: -1.5 } }}
    >
      {caregiver && typeName && (
        // The region around it announces it, politely: not an alert of its own.
        <Alert severity="info" role="none">
          {t('booking.caregiverDropped', { caregiver: caregiver.name, type: typeName })}
        </Alert>
      )}
    </Box>
  );
}

/**
 * The time the patient had chosen was taken meanwhile (the page asks again while it is open): it
 * is no longer chosen, and the patient is told so, politely, where the times are.
 */
export function TakenSlotNote({ time }: { time: string | null }) {
  const { t } = useTranslation();
  return (
    <Box role="status" sx={{ '&:empty': { display: 'none' } }}>
      {time && (
        <Alert severity="warning" role="none">
          {t('booking.slotTaken', { time })}
        </Alert>
      )}
    </Box>
  );
}

/** On the waitlist for this caregiver and type: said instead of a second "notify me". */
export function OnWaitlistNote({
  caregiver,
  typeName,
  myAppointments,
}: {
  caregiver: string;
  typeName: string;
  /** The link to my appointments, where the entry can be left. */
  myAppointments: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Alert severity="success" role="note">
      {t('waitlist.onList', { caregiver, type: typeName })} {myAppointments}
    </Alert>
  );
}
