// The clinic page's address (docs/product/clinic-page.md#address). Shared: the server answers an
// address whose name part is not in this form with a redirect to the one that is; the app builds
// its links with it. Zod-free, so the web can import it without bringing zod into the browser.

import { pagePath, patientPages } from './patient-pages.js';

/**
 * The clinic name as it appears in the page address: spaces, plain or still
 * percent-encoded, become hyphens, and gershayim are dropped (the Hebrew ״ and the ASCII " typed
 * in its place, as in ד"ר), so shared links read cleanly.
 */
export function normaliseClinicName(name: string): string {
  // Quotes first, so one between '%2' and '0' cannot leave a '%20' behind.
  return name.replace(/["\u05F4]/g, '').replace(/%20|\s/g, '-');
}

/**
 * The clinic page's address with the clinic's name in it
 * (docs/product/booking.md#confirmation-page).
 */
export function clinicPagePath(clinic: { id: number; name: string }): string {
  // Encoded (by pagePath), so a name with '/', '?' or '#' stays one segment of the path.
  return pagePath(patientPages['clinic-page'].path, {
    clinicId: clinic.id,
    clinicName: normaliseClinicName(clinic.name),
  });
}
