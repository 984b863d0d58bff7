import type { CSSProperties, ReactNode } from 'react';

/**
 * The clinic's own words (names, addresses) are Hebrew even on the English page: isolated, each
 * run takes its direction from its first letter instead of the page's.
 */
export function ClinicText({ children }: { children: ReactNode }) {
  return <bdi>{children}</bdi>;
}

/** A run that reads left to right (phone, e-mail, date, times, licence number) inside Hebrew text. */
export function Ltr({ children }: { children: ReactNode }) {
  return <bdi dir="ltr">{children}</bdi>;
}

export const visuallyHidden: CSSProperties = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  margin: '-1px',
  padding: 0,
  border: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
};

/** Text for screen readers only, e.g. the word "Phone" that an icon stands for on screen. */
export function VisuallyHidden({ children, id }: { children: ReactNode; id?: string }) {
  return (
    <span id={id} style={visuallyHidden}>
      {children}
    </span>
  );
}
