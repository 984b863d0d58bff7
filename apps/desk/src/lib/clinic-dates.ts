import type { IntegrationClinic } from '@marpe/shared';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from './api';
import { localeOf } from './format';

const clinicQuery = {
  queryKey: ['clinic'] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    api<IntegrationClinic>('/api/integration/clinic', { signal }),
  staleTime: 5 * 60_000,
};

/** The clinic's own settings (`GET /api/integration/clinic`), one query for every page. */
export const useClinicSettings = () => useQuery(clinicQuery);

/** The clinic's time zone, as a query: for pages that wait for it (the clinic's "today"). */
export const useClinicZoneQuery = () =>
  useQuery({ ...clinicQuery, select: (clinic: IntegrationClinic) => clinic.timezone });

/** The clinic's time zone: every time the desk shows is on the clinic's clocks. */
export const useClinicZone = (): string => useClinicSettings().data?.timezone ?? 'Asia/Jerusalem';

/**
 * Instants said on the clinic's clocks whatever the computer's zone, in the reader's language:
 * `dayAndTime` for lists ("28 בנוב׳ 2026, 10:52"), `longDayAndTime` for a sentence.
 */
export function useClinicDates() {
  const { i18n } = useTranslation();
  const timeZone = useClinicZone();
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
