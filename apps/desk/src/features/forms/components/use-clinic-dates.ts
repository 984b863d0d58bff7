import { useTranslation } from 'react-i18next';
import { localeOf } from '../../../lib/format';
import { useClinicTimeZone } from '../api/form-templates';

/** Instants said on the clinic's clocks, in the reader's language. */
export function useClinicDates() {
  const { i18n } = useTranslation();
  const timeZone = useClinicTimeZone();
  const locale = localeOf(i18n.language);
  const dayAndTime = new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  });
  const longDayAndTime = new Intl.DateTimeFormat(locale, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone,
  });
  return {
    timeZone,
    dayAndTime: (iso: string) => dayAndTime.format(new Date(iso)),
    longDayAndTime: (iso: string) => longDayAndTime.format(new Date(iso)),
  };
}
