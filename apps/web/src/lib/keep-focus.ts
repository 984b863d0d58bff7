/**
 * Location state for a navigation that only rewrites the address of the page on screen (a clinic
 * name made canonical, say): focus stays put instead of moving to the page heading.
 */
export const keepFocusState = { keepFocus: true } as const;

export function keepsFocus(state: unknown): boolean {
  return (
    typeof state === 'object' &&
    state !== null &&
    (state as { keepFocus?: unknown }).keepFocus === true
  );
}
