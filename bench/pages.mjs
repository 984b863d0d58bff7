// The patient pages as a phone gets them: JavaScript fetched before the patient acts (once loaded and quiet), and by the patient's
// first act (a Tab), beside Lighthouse's mobile scores, from one server. `npm run bench` prints it before the first-tap table; `npm run bench:pages -w
// @marpe/bench` prints only this table (after `npm run build`).
import { demoLinkPath } from '../e2e/support/demo-links.ts';
import { bundleSizes } from './bundle-size.mjs';
import { lighthouseTable } from './lighthouse.mjs';
import { startMarpe } from './servers.mjs';

/** Rows Lighthouse measures too: the patient pages painted from HTML (ADR 021, ADR 025). */
const scored = [
  '/',
  '/privacy',
  '/terms',
  '/accessibility',
  '/clinic/1',
  '/login/1',
  '/booking/1',
  '/appointments/1',
  '/q/:token',
  '/p/:token',
  '/tranzila/:token?results=Response%3D033',
];
/** Rows with their JavaScript only. */
const sizedOnly = [
  '/completed',
  '/expired',
  '/booking/1/confirmation',
  // A success the server has yet to confirm (the page then loads the app at once, to ask until
  // it is); the declined card above is the same page at rest.
  '/tranzila/:token?results=Response%3D000',
  '/whatsapp-signup/unknown-token',
  '/shaam-auth',
];

export async function pageTable({ lighthouse = true } = {}) {
  const marpe = await startMarpe();
  try {
    // Real links (POST /api/dev/demo-links): the form and payment pages as a patient opens them.
    const payment = await demoLinkPath(marpe.url, 'paymentUrl');
    const tokens = {
      '/q/:token': await demoLinkPath(marpe.url, 'formUrl'),
      '/p/:token': payment,
    };
    const result = payment.replace(/^\/p\//, '/tranzila/');
    const pathOf = (row) => tokens[row] ?? row.replace(/^\/tranzila\/:token/, result);
    const rows = [...scored, ...sizedOnly];
    const sizes = await bundleSizes(marpe.url, rows.map(pathOf));
    const scores = lighthouse
      ? await lighthouseTable(
          Object.fromEntries(scored.map((row) => [row, marpe.url + pathOf(row)])),
        )
      : {};
    return Object.fromEntries(
      rows.map((row, i) => [
        row,
        {
          'JS files': sizes[i].files,
          'JS br KiB before any act': sizes[i]['brotli KiB'],
          'JS br KiB at first act': sizes[i]['at first act brotli KiB'],
          ...scores[row],
        },
      ]),
    );
  } finally {
    await marpe.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(
    '\nPatient pages: JavaScript fetched before any act (the pages a patient came to act on fetch their app while the patient reads, ADR 033) and by the first act (brotli, as served), and Lighthouse 12.8 mobile (median of 3):',
  );
  console.table(await pageTable());
}
