import { useEffect } from 'react';
import { useBookingStore } from '../stores/booking-store';

/** How often an open, visible booking page asks again for the chosen date's times. */
export const SLOT_REFRESH_MS = 15_000;

/**
 * Keeps the chosen date's times current while the page is open: a time booked by someone else,
 * or made busy in the caregiver's calendar, leaves the page within seconds, and at once when the
 * patient comes back to the tab. Only while the page is visible: a tab left in the background
 * asks nothing.
 */
export function useFreshSlots(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const refresh = () => {
      if (document.visibilityState === 'visible') {
        void useBookingStore.getState().refreshAvailableSlots();
      }
    };
    const timer = window.setInterval(refresh, SLOT_REFRESH_MS);
    document.addEventListener('visibilitychange', refresh);
    window.addEventListener('focus', refresh);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', refresh);
      window.removeEventListener('focus', refresh);
    };
  }, [active]);
}
