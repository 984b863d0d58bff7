import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPhone } from '../../../lib/format';
import { useClinicSettings } from '../../../lib/clinic-dates';

export type Delivery = 'send' | 'copy';

/** Send the link to the patient's phone by the clinic's channel, or only show it to copy. */
export function DeliveryChoice({
  value,
  onChange,
  phone,
  error,
  sendDisabled = false,
}: {
  value: Delivery;
  onChange: (value: Delivery) => void;
  /** The patient's mobile (05XXXXXXXX), once a patient is chosen. */
  phone: string | null;
  error?: string;
  /** No phone to send to (a request made without a patient): the link can only be copied. */
  sendDisabled?: boolean;
}) {
  const { t } = useTranslation('forms');
  const id = useId();
  const clinic = useClinicSettings();
  const channel = t(`channel.${clinic.data?.settings.messaging_channel ?? 'sms'}`);
  return (
    <FormControl component="fieldset" error={Boolean(error)}>
      <FormLabel component="legend">{t('delivery.legend')}</FormLabel>
      <RadioGroup
        value={value}
        onChange={(e) => onChange(e.target.value as Delivery)}
        name={`${id}-delivery`}
      >
        <FormControlLabel
          value="send"
          disabled={sendDisabled}
          control={<Radio slotProps={{ input: { 'aria-describedby': `${id}-help` } }} />}
          label={
            phone
              ? t('delivery.send', { channel, phone: formatPhone(phone) })
              : t('delivery.sendNoPatient', { channel })
          }
        />
        <FormControlLabel value="copy" control={<Radio />} label={t('delivery.copy')} />
      </RadioGroup>
      <FormHelperText id={`${id}-help`} sx={{ mx: 0 }}>
        {error ?? t('delivery.channelHelp')}
      </FormHelperText>
    </FormControl>
  );
}
