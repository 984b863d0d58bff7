import { useTranslation } from 'react-i18next';
import checkUrl from './check-circle.svg';
import { StatusView } from './status-view';

export function CompletedPage() {
  const { t } = useTranslation();
  return (
    <StatusView
      // Decorative: the heading says it all.
      image={<img src={checkUrl} alt="" width={96} height={96} />}
      heading={t('status.completed.heading')}
      text={t('status.completed.text')}
    />
  );
}
