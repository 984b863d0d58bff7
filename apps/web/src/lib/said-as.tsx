import type { ReactNode } from 'react';
import { VisuallyHidden } from './text-runs';

/**
 * Text the eye reads short and the ear hears in full: a date shown "01.12.2026 08:00" is said
 * "יום שלישי, 1 בדצמבר 2026, בשעה 08:00" rather than as a string of digits and dots
 * (docs/formats.md). The short form is hidden from screen readers so it is not said twice.
 */
export function SaidAs({ said, children }: { said: string; children: ReactNode }) {
  return (
    <>
      <span aria-hidden="true">{children}</span>
      <VisuallyHidden>{said}</VisuallyHidden>
    </>
  );
}
