import LinkOffIcon from '@mui/icons-material/LinkOff';
import { useTranslation } from 'react-i18next';
import { StatusView } from './status-view';

export function ExpiredPage() {
  const { t } = useTranslation();
  return (
    <StatusView
      image={<LinkOffIcon sx={{ fontSize: 72, color: 'text.secondary' }} />}
      heading={t('status.expired.heading')}
      text={t('status.expired.text')}
    />
  );
}
