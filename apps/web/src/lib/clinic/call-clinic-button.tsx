import PhoneIcon from '../icons/phone';
import Button, { type ButtonProps } from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Ltr } from '../text-runs';
import { telHref } from './tel-href';

/**
 * "Call the clinic 03-5551234" as one tap-to-call link. The words and the number sit in one
 * inline run: a button lays its children out as flex items, which drops the space between them
 * ("התקשרו למרפאה03-5551234", on screen and in the accessible name).
 */
export function CallClinicButton({
  phone,
  variant = 'outlined',
}: {
  phone: string;
  variant?: ButtonProps['variant'];
}) {
  const { t } = useTranslation();
  return (
    <Button variant={variant} href={telHref(phone)} startIcon={<PhoneIcon />}>
      <span>
        {t('clinic.call')} <Ltr>{phone}</Ltr>
      </span>
    </Button>
  );
}
