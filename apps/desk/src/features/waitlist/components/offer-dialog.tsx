import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { IntegrationCaregiver, IntegrationWaitlistEntry, WaitlistOffer } from '@marpe/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api';
import { errorText } from '../../../lib/field-errors';
import { useNotify } from '../../../lib/notify';
import { PageLoading } from '../../../lib/page-loading';
import { waitlistEntriesKey } from '../api/list-entries';
import { useOfferSlots } from '../api/offer-slots';
import { offerTime } from '../api/offer-time';
import { formatDate, formatInstant, slotDate, slotTime, slotsByDate } from '../waitlist-format';

const patientName = (entry: IntegrationWaitlistEntry) =>
  `${entry.patient.first_name} ${entry.patient.last_name}`;

/**
 * A failed offer in the reader's language, and where it belongs: at the times (a time the server
 * refuses), at the caregiver, or over the form.
 */
function offerFailure(
  t: TFunction,
  failure: unknown,
): { field: 'start_date' | 'caregiver_id' | null; text: string } {
  if (failure instanceof ApiError) {
    const reason = (failure.details as { reason?: unknown } | undefined)?.reason;
    if (
      failure.code === 'conflict' &&
      (reason === 'entry_closed' || reason === 'already_offered')
    ) {
      return { field: null, text: t(`offer.errors.${reason}`) };
    }
    const paths = failure.issues.map((issue) => issue.path);
    if (paths.includes('caregiver_id')) {
      return { field: 'caregiver_id', text: t('offer.errors.caregiver') };
    }
    if (paths.includes('start_date')) {
      return { field: 'start_date', text: t('offer.errors.notOffered') };
    }
    const retryAfter = (failure.details as { retry_after?: unknown } | undefined)?.retry_after;
    if (failure.code === 'too_many_requests' && typeof retryAfter === 'number') {
      return {
        field: null,
        text: t('offer.errors.cap', { minutes: Math.max(1, Math.ceil(retryAfter / 60)) }),
      };
    }
  }
  return { field: null, text: errorText(t, failure) };
}

/** Offers one waiting patient a free time: the caregiver, the free times on their dates, send. */
export function OfferDialog({
  entry,
  open,
  zone,
  caregivers,
  onClose,
  onExited,
}: {
  entry: IntegrationWaitlistEntry;
  open: boolean;
  zone: string | undefined;
  caregivers: IntegrationCaregiver[];
  onClose: () => void;
  onExited: () => void;
}) {
  const { t, i18n } = useTranslation('waitlist');
  const language = i18n.language;
  const id = useId();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [caregiverId, setCaregiverId] = useState(entry.caregiver.id);
  const [chosen, setChosen] = useState<string | null>(null);
  const [showAll, setShowAll] = useState(entry.part_of_day === 'any');
  const [missing, setMissing] = useState(false);
  const slots = useOfferSlots(entry.id, caregiverId, open);
  const send = useMutation({
    mutationFn: (start: string) =>
      offerTime(entry.id, {
        start_date: start,
        ...(caregiverId === entry.caregiver.id ? {} : { caregiver_id: caregiverId }),
      }),
  });

  // Who else may see the patient: active caregivers who offer the type (and the entry's own).
  const choices = caregivers.filter(
    (c) =>
      c.id === entry.caregiver.id ||
      (c.is_active && c.appointment_type_ids.includes(entry.appointment_type.id)),
  );
  if (!choices.some((c) => c.id === entry.caregiver.id)) {
    choices.unshift({ id: entry.caregiver.id, name: entry.caregiver.name } as IntegrationCaregiver);
  }

  const days = slotsByDate(slots.data?.slots ?? [], showAll);
  const failure = send.isError ? offerFailure(t, send.error) : null;
  const name = patientName(entry);
  const part = t(`partOfDay.${entry.part_of_day}`);

  function done(offer: WaitlistOffer) {
    const when = {
      name,
      date: formatDate(slotDate(offer.start_date), language),
      time: slotTime(offer.start_date),
    };
    notify(
      offer.quiet_until === null
        ? t('offer.sent', when)
        : t('offer.queued', { ...when, at: formatInstant(offer.quiet_until, zone, language) }),
    );
    void queryClient.invalidateQueries({ queryKey: waitlistEntriesKey });
    onClose();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (chosen === null) {
      setMissing(true);
      return;
    }
    setMissing(false);
    try {
      done(await send.mutateAsync(chosen));
    } catch (error) {
      // The time went meanwhile: the list shows what is free now; the rest stays as chosen.
      if (error instanceof ApiError && error.code === 'slot_taken') {
        setChosen(null);
        void slots.refetch();
      }
    }
  }

  const slotsError = missing
    ? t('offer.choose')
    : failure?.field === 'start_date'
      ? failure.text
      : null;
  const noneText =
    (slots.data?.slots.length ?? 0) === 0 ? t('offer.none') : t('offer.noneInPart', { part });

  return (
    <Dialog
      open={open}
      onClose={send.isPending ? undefined : onClose}
      aria-labelledby={`${id}-title`}
      maxWidth="sm"
      fullWidth
      slotProps={{ transition: { onExited } }}
    >
      <form noValidate onSubmit={(e) => void submit(e)}>
        <DialogTitle id={`${id}-title`}>{t('offer.title', { name })}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <Typography>
              {t('offer.summary', {
                type: entry.appointment_type.name,
                caregiver: entry.caregiver.name,
                from: formatDate(entry.from_date, language),
                to: formatDate(entry.to_date, language),
                part,
              })}
            </Typography>
            <Typography color="text.secondary">{t('offer.help')}</Typography>
            {failure && failure.field === null ? (
              <Alert severity="error">{failure.text}</Alert>
            ) : null}
            <TextField
              select
              label={t('offer.caregiver')}
              value={caregiverId}
              onChange={(e) => {
                setCaregiverId(Number(e.target.value));
                setChosen(null);
                send.reset();
              }}
              error={failure?.field === 'caregiver_id'}
              helperText={failure?.field === 'caregiver_id' ? failure.text : ' '}
              slotProps={{ select: { native: true } }}
            >
              {choices.map((caregiver) => (
                <option key={caregiver.id} value={caregiver.id}>
                  {caregiver.name}
                </option>
              ))}
            </TextField>
            {entry.part_of_day === 'any' ? null : (
              <FormControlLabel
                control={
                  <Checkbox checked={showAll} onChange={(e) => setShowAll(e.target.checked)} />
                }
                label={t('offer.showAll')}
              />
            )}
            {slots.isError ? <Alert severity="error">{errorText(t, slots.error)}</Alert> : null}
            {slots.isPending ? <PageLoading /> : null}
            {slots.data && days.length === 0 ? <Typography>{noneText}</Typography> : null}
            {days.length > 0 ? (
              <FormControl component="fieldset" error={slotsError !== null}>
                <FormLabel component="legend">{t('offer.slots')}</FormLabel>
                <RadioGroup
                  name={`${id}-slot`}
                  value={chosen ?? ''}
                  onChange={(e) => {
                    setChosen(e.target.value);
                    setMissing(false);
                  }}
                  aria-describedby={slotsError ? `${id}-slots-error` : undefined}
                >
                  {days.map((day) => (
                    <Box key={day.date} sx={{ mt: 1 }}>
                      <Typography component="p" variant="subtitle2" id={`${id}-${day.date}`}>
                        {formatDate(day.date, language)}
                      </Typography>
                      <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 1 }}>
                        {day.slots.map((slot) => (
                          <FormControlLabel
                            key={slot.start}
                            value={slot.start}
                            disabled={slot.offered}
                            control={
                              <Radio
                                slotProps={{
                                  input: { 'aria-describedby': `${id}-${day.date}` },
                                }}
                              />
                            }
                            label={
                              <>
                                <bdi>{slotTime(slot.start)}</bdi>
                                {slot.offered ? ` ${t('offer.offered')}` : ''}
                              </>
                            }
                          />
                        ))}
                      </Box>
                    </Box>
                  ))}
                </RadioGroup>
                {slotsError ? (
                  <FormHelperText id={`${id}-slots-error`}>{slotsError}</FormHelperText>
                ) : null}
              </FormControl>
            ) : null}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={send.isPending}>
            {t('cancel', { ns: 'common' })}
          </Button>
          <Button type="submit" variant="contained" loading={send.isPending}>
            {t('offer.send')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
