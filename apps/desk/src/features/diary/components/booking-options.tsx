import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import { useTranslation } from 'react-i18next';

/**
 * What the desk may ask beyond the patients' rules when it books or moves an appointment, and
 * whether the patient is told by SMS. Each stays off until someone ticks it, SMS aside.
 */
export interface BookingOptions {
  sendSms: boolean;
  outsideHours: boolean;
  ignoreBusy: boolean;
}

export const defaultBookingOptions: BookingOptions = {
  sendSms: true,
  outsideHours: false,
  ignoreBusy: false,
};

/** The API body's names for the options. */
export const bookingOptionsBody = (options: BookingOptions) => ({
  outside_working_hours: options.outsideHours,
  ignore_busy_times: options.ignoreBusy,
  send_sms: options.sendSms,
});

/** The options' three boxes, in the words of the dialog (`booking` or `move`) they sit in. */
export function BookingOptionsFields({
  value,
  onChange,
  words,
  groupLabel,
}: {
  value: BookingOptions;
  onChange: (next: BookingOptions) => void;
  words: 'booking' | 'move';
  groupLabel?: string;
}) {
  const { t } = useTranslation('diary');
  const box = (key: keyof BookingOptions) => (
    <FormControlLabel
      control={
        <Checkbox
          checked={value[key]}
          onChange={(e) => onChange({ ...value, [key]: e.target.checked })}
        />
      }
      label={t(`${words}.${key}`)}
    />
  );
  return (
    <FormGroup aria-label={groupLabel}>
      {box('sendSms')}
      {box('outsideHours')}
      {box('ignoreBusy')}
    </FormGroup>
  );
}
