import { useSyncExternalStore } from 'react';

/**
 * Whether "Successfully Authenticated" is to show (docs/product/login.md#steps). The login page
 * goes on to the next page the moment the code is accepted, so the message shows there, from the
 * top bar, which stays across pages. Kept apart from the login flow's stores, whose code the
 * pages that show the top bar do not all load.
 */
let shown = false;
const listeners = new Set<() => void>();

function set(value: boolean) {
  if (shown === value) return;
  shown = value;
  for (const listener of listeners) listener();
}

export const showVerifiedNotice = () => set(true);
export const hideVerifiedNotice = () => set(false);

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useVerifiedNotice(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => shown,
    () => false,
  );
}
