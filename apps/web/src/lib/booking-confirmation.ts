import { create } from 'zustand';

interface BookingConfirmationState {
  displayConfirmation: boolean;
  showConfirmation: () => void;
  clearConfirmation: () => void;
}

/**
 * The booking state's display-confirmation flag (docs/product/booking.md#choices). The booking
 * feature sets it after a successful booking and the clinic page shows the "booking confirmed"
 * snackbar and clears it. It lives in lib, not in either feature, because features never import
 * each other.
 */
export const useBookingConfirmation = create<BookingConfirmationState>()((set) => ({
  displayConfirmation: false,
  showConfirmation: () => set({ displayConfirmation: true }),
  clearConfirmation: () => set({ displayConfirmation: false }),
}));
