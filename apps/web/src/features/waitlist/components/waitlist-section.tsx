import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { shortDate, spokenDate } from '../../../lib/clinic-time';
import { lazyOnOpen } from '../../../lib/lazy-on-open';
import { SaidAs } from '../../../lib/said-as';
import { OutcomeSnackbar } from '../../../lib/outcome-snackbar';
import { useWaitlist, type WaitlistEntry } from '../api/get-waitlist';
import { useLeaveWaitlist } from '../api/leave-waitlist';

const LeaveWaitlistDialog = lazyOnOpen(
  async () => (await import('./leave-waitlist-dialog')).LeaveWaitlistDialog,
);

function WaitlistCard({ entry, onLeave }: { entry: WaitlistEntry; onLeave: () => void }) {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  const whenId = useId();
  const { from_date: from, to_date: to } = entry;
  return (
    <Card component="article" variant="outlined" aria-labelledby={headingId}>
      <CardContent sx={{ pb: 1 }}>
        <Typography id={headingId} component="h3" variant="h6">
          <bdi>{entry.caregiver_name}</bdi>
        </Typography>
        <Typography color="textSecondary">
          <bdi>{entry.type_name}</bdi>
        </Typography>
        <Box id={whenId} sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2, mt: 1 }}>
          <span>
            <SaidAs
              said={t('waitlist.range', {
                from: spokenDate(from, i18n.language),
                to: spokenDate(to, i18n.language),
              })}
            >
              {t('waitlist.range', { from: shortDate(from), to: shortDate(to) })}
            </SaidAs>
          </span>
          <span>{t(`waitlist.parts.${entry.part_of_day}`)}</span>
        </Box>
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2 }}>
        <Button variant="outlined" color="error" aria-describedby={whenId} onClick={onLeave}>
          {t('waitlist.leave')}
        </Button>
      </CardActions>
    </Card>
  );
}

/**
 * The patient's waitlist entries on "my appointments", each with "leave the waitlist" (confirmed
 * first). Nothing shows while there are none.
 */
export function WaitlistSection({ patientId }: { patientId: number }) {
  const { t } = useTranslation();
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { data } = useWaitlist(patientId);
  const leave = useLeaveWaitlist();
  const [target, setTarget] = useState<WaitlistEntry | null>(null);
  const [open, setOpen] = useState(false);
  const [outcome, setOutcome] = useState<'left' | 'leaveError' | null>(null);
  const focusHeading = useRef(false);

  if (!data || (data.length === 0 && !open && target === null && outcome === null)) return null;

  return (
    <Box component="section" aria-labelledby={headingId}>
      {/* Focus lands here after leaving, since the card is gone. */}
      <Typography
        id={headingId}
        ref={headingRef}
        tabIndex={-1}
        component="h2"
        variant="h6"
        sx={{ mb: 1.5, '&:focus': { outline: 'none' } }}
      >
        {t('waitlist.heading')}
      </Typography>
      <Box
        component="ul"
        role="list"
        aria-labelledby={headingId}
        sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 2 }}
      >
        {data.map((entry) => (
          <li key={entry.id}>
            <WaitlistCard
              entry={entry}
              onLeave={() => {
                setTarget(entry);
                setOpen(true);
              }}
            />
          </li>
        ))}
      </Box>
      <LeaveWaitlistDialog
        open={open}
        entry={target}
        pending={leave.isPending}
        onReturn={() => setOpen(false)}
        onConfirm={(entry) =>
          leave.mutate(entry.id, {
            onSuccess: () => {
              focusHeading.current = true;
              setOutcome('left');
            },
            onError: () => setOutcome('leaveError'),
            onSettled: () => setOpen(false),
          })
        }
        onExited={() => {
          setTarget(null);
          if (focusHeading.current) {
            focusHeading.current = false;
            headingRef.current?.focus();
          }
        }}
      />
      <OutcomeSnackbar
        open={outcome !== null}
        message={outcome ? t(`waitlist.${outcome}`) : ''}
        failed={outcome === 'leaveError'}
        onClose={() => setOutcome(null)}
      />
    </Box>
  );
}
