import Alert from '@mui/material/Alert';
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
import {
  createStaffInvitationBodySchema,
  staffRoles,
  type CreatedStaffInvitation,
  type StaffRole,
} from '@marpe/shared';
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  errorText,
  serverFieldErrors,
  validate,
  type FieldErrors,
} from '../../../lib/field-errors';
import { formatPhone, localeOf } from '../../../lib/format';
import { inviteStaff } from '../api/invitations';
import { CopyField } from '../../../lib/copy-field';

/**
 * Invites someone to the staff: name, mobile, role, and whether the link goes by SMS. The link is
 * then shown this once, with a copy button (or, where the browser refuses, selected in its field
 * to copy by hand) and what happens next.
 */
export function InviteDialog({
  open,
  onClose,
  onInvited,
}: {
  open: boolean;
  onClose: () => void;
  onInvited: () => void;
}) {
  const { t } = useTranslation('staff');
  const id = useId();
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [role, setRole] = useState<StaffRole>('front_desk');
  const [sendSms, setSendSms] = useState(true);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [created, setCreated] = useState<CreatedStaffInvitation | null>(null);
  const invite = useMutation({ mutationFn: inviteStaff });

  function reset() {
    setName('');
    setPhone('');
    setRole('front_desk');
    setSendSms(true);
    setErrors({});
    setCreated(null);
    invite.reset();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const body = { name, phone, role, send_sms: sendSms };
    const checked = validate(t, createStaffInvitationBodySchema, body);
    if (checked.errors) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    try {
      setCreated(await invite.mutateAsync(body));
      onInvited();
    } catch (failure) {
      // A 400 names its fields; anything else is said below the form. The typed values stay.
      setErrors(serverFieldErrors(t, failure) ?? {});
    }
  }

  const formFailure =
    invite.isError && serverFieldErrors(t, invite.error) === null
      ? errorText(t, invite.error)
      : null;

  return (
    <Dialog
      open={open}
      onClose={invite.isPending ? undefined : onClose}
      aria-labelledby={`${id}-title`}
      maxWidth="sm"
      fullWidth
      slotProps={{ transition: { onExited: reset } }}
    >
      {created ? (
        <CreatedInvitation
          invitation={created}
          sentBySms={sendSms}
          titleId={`${id}-title`}
          onClose={onClose}
        />
      ) : (
        <form noValidate onSubmit={(e) => void submit(e)}>
          <DialogTitle id={`${id}-title`}>{t('invite.title')}</DialogTitle>
          <DialogContent>
            <Stack spacing={2}>
              <Typography>{t('invite.intro')}</Typography>
              <TextField
                label={t('invite.name')}
                value={name}
                onChange={(e) => setName(e.target.value)}
                error={errors.name !== undefined}
                helperText={errors.name ?? ' '}
                autoComplete="off"
                required
                autoFocus
              />
              <TextField
                label={t('invite.phone')}
                value={phone}
                onChange={(e) => setPhone(e.target.value)}
                error={errors.phone !== undefined}
                helperText={errors.phone ?? t('invite.phoneHelp')}
                type="tel"
                autoComplete="off"
                slotProps={{ htmlInput: { dir: 'ltr', inputMode: 'tel' } }}
                required
              />
              <FormControl component="fieldset" error={errors.role !== undefined}>
                <FormLabel component="legend">{t('invite.role')}</FormLabel>
                <RadioGroup
                  value={role}
                  onChange={(e) => setRole(e.target.value as StaffRole)}
                  name={`${id}-role`}
                >
                  {staffRoles.map((value) => (
                    <FormControlLabel
                      key={value}
                      value={value}
                      control={
                        <Radio slotProps={{ input: { 'aria-describedby': `${id}-${value}` } }} />
                      }
                      label={
                        <span>
                          {t(`common:roles.${value}`)}
                          <Typography
                            id={`${id}-${value}`}
                            component="span"
                            variant="body2"
                            color="text.secondary"
                            sx={{ display: 'block' }}
                          >
                            {t(`roleHelp.${value}`)}
                          </Typography>
                        </span>
                      }
                      sx={{ alignItems: 'flex-start', mb: 1, '& .MuiRadio-root': { pt: 0.5 } }}
                    />
                  ))}
                </RadioGroup>
                {errors.role ? <FormHelperText>{errors.role}</FormHelperText> : null}
              </FormControl>
              <div>
                <FormControlLabel
                  control={
                    <Checkbox
                      checked={sendSms}
                      onChange={(e) => setSendSms(e.target.checked)}
                      slotProps={{ input: { 'aria-describedby': `${id}-sms-help` } }}
                    />
                  }
                  label={t('invite.sendSms')}
                />
                <FormHelperText id={`${id}-sms-help`} sx={{ mt: 0 }}>
                  {t('invite.sendSmsHelp')}
                </FormHelperText>
              </div>
              {formFailure ? <Alert severity="error">{formFailure}</Alert> : null}
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose} disabled={invite.isPending}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" variant="contained" loading={invite.isPending}>
              {t('invite.submit')}
            </Button>
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
}

function CreatedInvitation({
  invitation,
  sentBySms,
  titleId,
  onClose,
}: {
  invitation: CreatedStaffInvitation;
  sentBySms: boolean;
  titleId: string;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('staff');

  const until = new Intl.DateTimeFormat(localeOf(i18n.language), {
    dateStyle: 'long',
    timeStyle: 'short',
  }).format(new Date(invitation.expires_at));

  return (
    <>
      <DialogTitle id={titleId}>{t('created.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Alert severity={sentBySms ? 'success' : 'info'}>
            {sentBySms
              ? t('created.sent', { phone: formatPhone(invitation.phone) })
              : t('created.notSent', { name: invitation.name })}
          </Alert>
          <CopyField
            label={t('created.link')}
            value={invitation.url}
            helperText={t('created.once')}
            texts={{
              copy: t('created.copy'),
              copied: t('created.copied'),
              failed: t('created.copyFailed'),
            }}
          />
          <Typography variant="h3" component="h3">
            {t('created.nextTitle')}
          </Typography>
          <Typography>
            {t('created.next', {
              role: t(`common:roles.${invitation.role}`),
              date: until,
            })}
          </Typography>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {t('created.done')}
        </Button>
      </DialogActions>
    </>
  );
}
