import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { spokenDate, spokenDateTime } from '../../../lib/clinic-time';
import { SaidAs } from '../../../lib/said-as';

type When =
  /** A calendar date, `YYYY-MM-DD`. */
  | { date: string; instant?: never; timeZone?: never }
  /** An instant, said with its time on the clinic's clock. */
  | { instant: string; timeZone: string; date?: never };

/**
 * A date short to the eye and said in full in the page's language ("יום ראשון, 28 במרץ 2027"):
 * read aloud, the short format is a string of digits and dots.
 */
export function SpokenDate({ children, ...when }: When & { children: ReactNode }) {
  const { i18n } = useTranslation();
  const said =
    when.instant !== undefined
      ? spokenDateTime(when.instant, when.timeZone, i18n.language)
      : spokenDate(when.date, i18n.language);
  return <SaidAs said={said}>{children}</SaidAs>;
}
