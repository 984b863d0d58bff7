import CheckCircleOutlineIcon from '../../lib/icons/check-circle-outlined';
import { useTranslation } from 'react-i18next';
import { StatusView } from './status-view';

export function CompletedPage() {
  const { t } = useTranslation();
  return (
    <StatusView
      // Decorative (hidden from screen readers): the heading says it all. The success colour, as
      // on the payment pages.
      image={<CheckCircleOutlineIcon sx={{ fontSize: 96, color: 'success.main' }} />}
      heading={t('status.completed.heading')}
      text={t('status.completed.text')}
    />
  );
}
