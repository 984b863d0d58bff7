// The patient pages, each declared once (docs/pages.md, ADR 046): its address, where its HTML
// comes from and with which data, how its app starts and which pages it leads to. The web's
// router, its build-time pages and shells, the API's per-request pages and the footer's links
// are all derived from this table; the web adds each page's component and title
// (apps/web/src/app/pages.ts). Shared, and free of React and zod, because the API reads it too.

/** The server data a page can be rendered with: a key of the web's `PageData`. */
export type PageDataKind = 'clinic' | 'paymentRequest' | 'paymentResult' | 'intakeForm';

/** Where a page's first HTML comes from (ADR 021). */
export type PageHtml =
  /** Rendered once at build time: the same for every visitor. */
  | { from: 'build' }
  /** Rendered per request by the API server with `data` (ADR 021, ADR 025). */
  | {
      from: 'server';
      data: PageDataKind;
      /**
       * The page whose HTML is sent instead, at its own address (the app hydrates it there): what
       * a patient without a session sees of this page, since the server renders for nobody in
       * particular.
       */
      rendersAs?: PatientPageId;
      /** An address with this query parameter gets the empty shell: its page is not everybody's. */
      unlessQuery?: string;
    }
  /** None: the empty index.html with the page's modulepreload links; the app renders it. */
  | { from: 'client' };

export interface PatientPage {
  /** The full path pattern, in React Router's syntax (`:param`, `:param?`). */
  path: string;
  html: PageHtml;
  /**
   * A page the patient came to act on: its app starts while they read, with the code of these
   * pages fetched with its own, so that a tap to one waits on no request (ADR 033). Without it,
   * a page painted from HTML wakes at the patient's first act (ADR 025).
   */
  leadsTo?: readonly PatientPageId[];
  /**
   * Its HTML is what a patient without a session sees: with a session or a code on its way, its
   * content waits hidden until the app has rendered it (PageCodeManifest.withoutSession).
   */
  withoutSession?: true;
  /** Where the card frame returns: loaded in our own page's frame, it moves the whole window. */
  leavesFrame?: true;
  /** It names the clinic of its address's `?clinic=`, which its build-time HTML cannot. */
  namesLinkClinic?: true;
  /**
   * Its address carries a link token given to one patient or clinic: never indexed, never sent
   * on as a referrer, its HTML never kept.
   */
  linkToken?: true;
  /** Anyone may find it through a search engine (the sitemap lists it). */
  indexed?: true;
  /** One of the legal links in every page's footer, in this table's order. */
  inFooter?: true;
  /** Leaving it would lose what the patient is doing: the footer's links open in a new tab. */
  keepsPageOpen?: true;
}

export type PatientPageId =
  | 'home-page'
  | 'privacy-page'
  | 'terms-page'
  | 'accessibility-page'
  | 'clinic-page'
  | 'login-page'
  | 'booking-page'
  | 'booking-confirmation-page'
  | 'appointments-page'
  | 'intake-form-page'
  | 'payment-request-page'
  | 'payment-result-page'
  | 'completed-page'
  | 'expired-page'
  | 'shaam-auth-page'
  | 'whatsapp-signup-page';

const clinicFlow = ['login-page', 'booking-page', 'appointments-page'] as const;

/** The patient pages (docs/product/site.md#routes). */
export const patientPages = {
  'home-page': { path: '/', html: { from: 'build' }, indexed: true },
  'privacy-page': { path: '/privacy', html: { from: 'build' }, indexed: true, inFooter: true },
  'terms-page': { path: '/terms', html: { from: 'build' }, indexed: true, inFooter: true },
  'accessibility-page': {
    path: '/accessibility',
    html: { from: 'build' },
    indexed: true,
    inFooter: true,
  },
  'clinic-page': {
    path: '/clinic/:clinicId/:clinicName?',
    html: { from: 'server', data: 'clinic' },
    leadsTo: clinicFlow,
  },
  'login-page': {
    path: '/login/:clinicId',
    html: { from: 'server', data: 'clinic' },
    withoutSession: true,
    leadsTo: clinicFlow,
  },
  'booking-page': {
    path: '/booking/:clinicId',
    // Rescheduling: its title and steps are the patient's appointment's, not everybody's.
    html: { from: 'server', data: 'clinic', unlessQuery: 'reschedule' },
    withoutSession: true,
    leadsTo: ['booking-page', 'booking-confirmation-page', 'login-page', 'appointments-page'],
  },
  'booking-confirmation-page': {
    // It shows only what was booked in the same page load; loaded as a page, it sends the
    // patient to their appointments, which without a session is the login page.
    path: '/booking/:clinicId/confirmation',
    html: { from: 'server', data: 'clinic', rendersAs: 'login-page' },
  },
  'appointments-page': {
    // A patient without a session is sent to the login page: that is what the server renders.
    path: '/appointments/:clinicId',
    html: { from: 'server', data: 'clinic', rendersAs: 'login-page' },
  },
  'intake-form-page': {
    path: '/q/:token',
    html: { from: 'server', data: 'intakeForm' },
    leadsTo: ['intake-form-page', 'completed-page', 'expired-page'],
    linkToken: true,
  },
  'payment-request-page': {
    path: '/p/:token',
    html: { from: 'server', data: 'paymentRequest' },
    leadsTo: ['payment-request-page', 'payment-result-page'],
    linkToken: true,
    keepsPageOpen: true,
  },
  'payment-result-page': {
    // The payment provider's segment; its success and fail return address
    // (docs/product/payments.md#result).
    path: '/tranzila/:token',
    html: { from: 'server', data: 'paymentResult' },
    leavesFrame: true,
    linkToken: true,
  },
  'completed-page': { path: '/completed', html: { from: 'build' }, namesLinkClinic: true },
  'expired-page': { path: '/expired', html: { from: 'build' }, namesLinkClinic: true },
  'shaam-auth-page': { path: '/shaam-auth', html: { from: 'client' } },
  'whatsapp-signup-page': {
    // The server serves this path under its own CSP, which lets Meta's SDK in.
    path: '/whatsapp-signup/:clientId?',
    html: { from: 'client' },
    linkToken: true,
  },
} as const satisfies Record<PatientPageId, PatientPage>;

export const patientPageIds = Object.keys(patientPages) as PatientPageId[];

/** The page's declaration, widened to every field (the table's literal types narrow them). */
export function patientPage(id: PatientPageId): PatientPage {
  return patientPages[id];
}

/**
 * The parameters of `pathname` (no query) at a page's path pattern, decoded, or null when it does
 * not match. As React Router matches: `:name` is one segment, `:name?` an optional one, any letter
 * case, a trailing slash allowed. A parameter that does not decode does not match.
 */
export function matchPagePath(pattern: string, pathname: string): Record<string, string> | null {
  const wanted = pattern.split('/').filter((segment) => segment !== '');
  const given = pathname.replace(/\/+$/, '').split('/').slice(1);
  if (pathname === '/' || pathname === '') given.length = 0;
  const params: Record<string, string> = {};
  let at = 0;
  for (const segment of wanted) {
    const value = given[at];
    if (segment.startsWith(':')) {
      const optional = segment.endsWith('?');
      if (value === undefined || value === '') {
        if (optional) continue;
        return null;
      }
      try {
        params[segment.slice(1, optional ? -1 : undefined)] = decodeURIComponent(value);
      } catch {
        return null;
      }
    } else if (value?.toLowerCase() !== segment.toLowerCase()) {
      return null;
    }
    at += 1;
  }
  return at === given.length ? params : null;
}

/** A page's address with its parameters filled in (encoded); optional ones may be left out. */
export function pagePath(pattern: string, params: Record<string, string | number>): string {
  const segments = pattern
    .split('/')
    .filter((segment) => segment !== '')
    .flatMap((segment) => {
      if (!segment.startsWith(':')) return [segment];
      const optional = segment.endsWith('?');
      const value = params[segment.slice(1, optional ? -1 : undefined)];
      if (value === undefined) {
        if (optional) return [];
        throw new Error(`${pattern}: no ${segment}`);
      }
      return [encodeURIComponent(String(value))];
    });
  return `/${segments.join('/')}`;
}

/** The page at `pathname`, with its parameters, or null. */
export function patientPageAt(
  pathname: string,
): { id: PatientPageId; params: Record<string, string> } | null {
  for (const id of patientPageIds) {
    const params = matchPagePath(patientPages[id].path, pathname);
    if (params) return { id, params };
  }
  return null;
}

/**
 * Whether a path's first segment is that of a page whose address carries a link token, whatever
 * follows it: such an address stays out of indexes even when the app does not know it.
 */
export function isLinkTokenPath(pathname: string): boolean {
  const first = pathname.split(/[/?#]/)[1]?.toLowerCase() ?? '';
  return patientPageIds.some((id) => {
    const page = patientPage(id);
    return page.linkToken === true && page.path.split('/')[1] === first && first !== '';
  });
}
