import { useTranslation } from 'react-i18next';
import { localeOf } from '../../../lib/format';

/** An instant as the reader writes it: date and time, in their language. */
export function useDateTime(): (iso: string) => string {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(localeOf(i18n.language), {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  return (iso) => format.format(new Date(iso));
}
