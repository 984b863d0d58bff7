import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { isDiaryView, parseDate, todayIn, type DiaryView } from './clinic-time';

/** The view the address names, or the day view. */
export const viewOf = (params: URLSearchParams): DiaryView =>
  isDiaryView(params.get('view')) ? (params.get('view') as DiaryView) : 'day';

/**
 * What the diary's address holds (the view, date and caregiver shown, the patient booked for, the
 * appointment to open), how to page to another (`navigate`) and how to forget one (`dropParam`).
 */
export function useDiaryAddress(zone: string, caregivers: readonly { id: number }[]) {
  const [params, setParams] = useSearchParams();
  const today = todayIn(zone);
  const view = viewOf(params);
  const date = parseDate(params.get('date')) ?? today;
  const wanted = Number(params.get('caregiver'));
  const caregiverId = caregivers.some((c) => c.id === wanted) ? wanted : null;
  const bookingFor = params.get('patient');
  const wantedAppointment = Number(params.get('appointment')) || null;

  const dropParam = useCallback(
    (name: string) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete(name);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const navigate = (next: { view?: DiaryView; date?: string; caregiver?: number | null }) => {
    const merged = {
      view: next.view ?? view,
      date: next.date ?? date,
      caregiver: next.caregiver === undefined ? caregiverId : next.caregiver,
    };
    setParams(
      {
        view: merged.view,
        date: merged.date,
        ...(merged.caregiver === null ? {} : { caregiver: String(merged.caregiver) }),
        // Booking for a patient lasts while the diary is paged through.
        ...(bookingFor ? { patient: bookingFor } : {}),
      },
      { replace: false },
    );
  };

  return { today, view, date, caregiverId, bookingFor, wantedAppointment, dropParam, navigate };
}

export type DiaryAddress = ReturnType<typeof useDiaryAddress>;
