// What the page painted from HTML and its waking script (wake-on-demand.ts, ADR 025) agree on.

/** The id of the `<script type="application/json">` holding the page's `PageCodeManifest`. */
export const pageCodeManifestElementId = 'marpe-code';

/**
 * The manifest of a page that wakes on demand: which chunks are its app code and how the page
 * starts, as the build writes it into the page (JSON in the element `pageCodeManifestElementId`).
 */
export interface PageCodeManifest {
  /** The app's entry chunk. */
  entry: string;
  /** The chunks it and the page's route import, fetched beside it once the page wakes. */
  preload: string[];
  /**
   * The chunks of the pages this page leads to (and of its own steps and dialogs), fetched with
   * the page's own while the patient reads, so that a tap waits on none of them.
   */
  next?: string[];
  /**
   * The ids of the routes this page leads to whose code is in its own chunks: the app loads them
   * before it starts (no request), so a tap to one renders it at once (app/router.tsx loadPages).
   */
  nextRoutes?: string[];
  /**
   * A page a patient came to act on (a clinic's booking, a form or payment link): the app starts
   * while they read, once its code is in, rather than at their first act (ADR 033).
   */
  startsWhileReading?: true;
  /**
   * The HTML is what a patient without a session sees (the login and booking pages): with a
   * session or a code on its way the app shows another page or step, so the page's content waits
   * hidden (`waitingAttribute`) until the app has rendered it, rather than offering fields that
   * are about to go.
   */
  withoutSession?: true;
  /**
   * The page is where the card frame returns (the payment result): loaded in a frame of our own
   * page, it moves the whole window to itself and does nothing else there.
   */
  leavesFrame?: true;
  /**
   * The page names the clinic its address's `?clinic=` gives (the completed and expired pages a
   * form link ends on): the HTML, the same for every visitor, cannot, so then the app renders it
   * at once.
   */
  namesLinkClinic?: true;
}

/** Dispatched on `document` once the app has hydrated (or rendered) the page. */
export const appReadyEvent = 'marpe:app-ready';

/**
 * Set on #root by the waking script when the browser holds what the server could not see (a
 * session, a code on its way): the app then renders the page afresh rather than hydrating HTML
 * rendered for nobody in particular.
 */
export const renderAfreshAttribute = 'data-render-afresh';

/**
 * Set on #root by the server on a page that changes by itself (the payment result while it is
 * being confirmed): the waking script loads the app at once, after the first paint.
 */
export const liveAttribute = 'data-live';

/**
 * Set on #root by the waking script while the content of HTML that is not this patient's waits
 * hidden under a spinner (app/waiting.css); removed by the app's first commit.
 */
export const waitingAttribute = 'data-waiting';

/**
 * Set by the waking script on the element whose tap it holds until the app runs, and on <html>
 * meanwhile: app/waiting.css shows it busy at once.
 */
export const heldAttribute = 'data-held';
