// The first script of a page painted from HTML (ADR 025), and the only one until the patient acts:
// the app's code (React, the router, MUI) loads at the first touch, click, focus or key. A page the
// app must render at once (another language than the HTML's, a stored session or a code on its
// way, a page that changes by itself) loads it at once. Either way, a click or a submit that comes
// before the app is held back and run again on the same element once the page has hydrated
// (hydration keeps the server's elements); main.tsx hands on what was typed before.
import { languageStorageKey, prerenderLanguage, toLanguage } from './lib/languages';
import {
  pageCodeManifestElementId,
  appReadyEvent,
  heldAttribute,
  liveAttribute,
  renderAfreshAttribute,
  waitingAttribute,
  type PageCodeManifest,
} from './app/wake-signal';
import { sameOriginTop } from './features/payment/frame-escape';
import { tokenStorageKey, verificationStorageKey } from './lib/auth-storage-keys';
import { formTokenOfPath, unsentAnswersKey } from './lib/form-storage-keys';

const code = JSON.parse(
  document.getElementById(pageCodeManifestElementId)?.textContent ?? '',
) as PageCodeManifest;
const root = document.getElementById('root');

/**
 * Elements whose click the app handles: the ones a click is held back and run again for. Not text
 * fields and lists, which the browser alone lets the patient fill in (main.tsx hands on what was
 * typed).
 */
const actionable = [
  'a[href]',
  'button',
  'summary',
  'label',
  'input[type="checkbox"]',
  'input[type="radio"]',
  'input[type="submit"]',
  'input[type="button"]',
  '[role="button"]',
  '[tabindex]:not([tabindex="-1"])',
].join(', ');

let woken: Promise<void> | undefined;
/** The patient's last act before the app, run again once it has the page: a click, or a form sent. */
let heldBack: HTMLElement | null = null;

const preloaded = new Map<string, Promise<void>>();

/**
 * Fetches and compiles modules without running them (each once), low priority unless asked;
 * settles once they have all arrived (or failed: import() then reports it).
 */
function preloadModules(hrefs: string[], { low }: { low: boolean }): Promise<unknown> {
  return Promise.all(
    hrefs.map((href) => {
      let arrived = preloaded.get(href);
      if (!arrived) {
        const link = document.createElement('link');
        link.rel = 'modulepreload';
        link.crossOrigin = '';
        if (low) link.fetchPriority = 'low';
        link.href = href;
        arrived = new Promise<void>((resolve) => {
          link.addEventListener('load', () => resolve(), { once: true });
          link.addEventListener('error', () => resolve(), { once: true });
        });
        preloaded.set(href, arrived);
        document.head.append(link);
      }
      return arrived;
    }),
  );
}

/** Runs `task` once the browser is idle (soon, where it cannot say). */
function whenIdle(task: () => void) {
  if ('requestIdleCallback' in window) window.requestIdleCallback(task, { timeout: 1000 });
  else setTimeout(task, 0);
}

/**
 * How long after the page has loaded the app may start without the patient: the first paint,
 * the fonts and the page's own first moments go first; a patient reads longer than this.
 */
const readingHeadStartMs = 1_000;

/**
 * While the patient reads (ADR 033): once the page has loaded and the browser is idle,
 * the app's code and the next pages' are fetched at low priority; once they are in, the patient
 * has read for a moment and the browser is idle again, the app takes the page over, its
 * hydration in slices that a tap can interrupt. The first tap then meets a running app instead of
 * waiting seconds for it; a tap before that is held and answered as before.
 */
function startWhileReading() {
  const start = () => {
    const headStart = new Promise((resolve) => setTimeout(resolve, readingHeadStartMs));
    const fetched = preloadModules([code.entry, ...code.preload, ...(code.next ?? [])], {
      low: true,
    });
    void Promise.all([headStart, fetched]).then(() =>
      whenIdle(() => wake({ lowPriority: true }).catch(stayStatic)),
    );
  };
  if (document.readyState === 'complete') whenIdle(start);
  else window.addEventListener('load', () => whenIdle(start), { once: true });
}

/**
 * Loads the app. Woken by the patient, its code is what the page waits for; woken without them
 * (`lowPriority`), it is fetched at low priority, after the fonts and images of the first paint (as the
 * pages of ADR 021 did). The next pages' code follows at low priority either way.
 */
function wake({ lowPriority = false } = {}): Promise<void> {
  if (woken) return woken;
  woken = new Promise<void>((resolve, reject) => {
    document.addEventListener(appReadyEvent, () => resolve(), { once: true });
    // The entry too, so that it comes at the same priority; import() then finds it fetched.
    void preloadModules([code.entry, ...code.preload], { low: lowPriority });
    void preloadModules(code.next ?? [], { low: true });
    import(/* @vite-ignore */ code.entry).catch(reject);
  }).finally(() => {
    document.removeEventListener('click', holdBack, true);
    document.removeEventListener('submit', holdBackSubmit, true);
    showHeld(null);
  });
  woken.then(
    () => {
      if (!heldBack?.isConnected) return;
      if (heldBack instanceof HTMLFormElement) heldBack.requestSubmit();
      else heldBack.click();
    },
    () => {
      // The app's code did not arrive (a lost connection): a link still goes where it points.
      if (heldBack instanceof HTMLAnchorElement) window.location.assign(heldBack.href);
    },
  );
  return woken;
}

/**
 * The tap held until the app runs, shown at once (never a dead tap, ADR 033): the element looks
 * pressed and busy, and a bar runs along the top of the page (app/waiting.css). Null: none.
 */
function showHeld(element: HTMLElement | null) {
  for (const held of document.querySelectorAll(`[${heldAttribute}]`)) {
    held.removeAttribute(heldAttribute);
    held.removeAttribute('aria-busy');
  }
  if (element) {
    element.setAttribute(heldAttribute, '');
    element.setAttribute('aria-busy', 'true');
    document.documentElement.setAttribute(heldAttribute, '');
  } else {
    document.documentElement.removeAttribute(heldAttribute);
  }
}

/** A click the page itself handles without the app: another site, a new tab, an in-page jump. */
function leftToTheBrowser(event: MouseEvent, element: Element): boolean {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
    return true;
  }
  if (!(element instanceof HTMLAnchorElement)) return false;
  if (element.origin !== window.location.origin) return true;
  if ((element.target && element.target !== '_self') || element.hasAttribute('download')) {
    return true;
  }
  return (
    element.hash !== '' &&
    element.pathname === window.location.pathname &&
    element.search === window.location.search
  );
}

function holdBack(event: MouseEvent) {
  const element = event.target instanceof Element ? event.target.closest(actionable) : null;
  if (!(element instanceof HTMLElement) || leftToTheBrowser(event, element)) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  heldBack = element;
  showHeld(element);
  wake().catch(stayStatic);
}

/** A form sent without a click (Enter in a form with no submit button): sent again by the app. */
function holdBackSubmit(event: SubmitEvent) {
  if (!(event.target instanceof HTMLFormElement)) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  heldBack = event.target;
  showHeld(event.submitter instanceof HTMLElement ? event.submitter : event.target);
  wake().catch(stayStatic);
}

/**
 * Whether the browser holds what the server could not see: a session to check on load
 * (docs/product/login.md#session) or a code on its way.
 */
function holdsSession(): boolean {
  try {
    return Boolean(
      window.localStorage.getItem(tokenStorageKey) ||
      window.sessionStorage.getItem(verificationStorageKey),
    );
  } catch {
    // No storage to read (blocked by the browser): nothing held either.
    return false;
  }
}

/**
 * Whether the app must render the page now: the patient reads it in another language, the
 * address names what the HTML cannot show (a status page's `?clinic=`: the link's clinic), or
 * this tab holds a form's answers the server may not have yet (the HTML shows its older draft).
 */
function mustWakeNow(): boolean {
  if (code.namesLinkClinic && new URLSearchParams(window.location.search).has('clinic')) {
    return true;
  }
  try {
    const token = formTokenOfPath(window.location.pathname);
    return (
      toLanguage(window.localStorage.getItem(languageStorageKey)) !== prerenderLanguage ||
      (token !== null && window.sessionStorage.getItem(unsentAnswersKey(token)) !== null)
    );
  } catch {
    // No storage to read (blocked by the browser): let the app decide.
    return true;
  }
}

// Without its code the page still reads, and its links still go where they point.
function stayStatic() {
  root?.removeAttribute(waitingAttribute);
}

/** Makes the page the patient's: the app wakes now, or at their first act. */
function start() {
  document.addEventListener('click', holdBack, true);
  document.addEventListener('submit', holdBackSubmit, true);
  if (holdsSession() && root) {
    // The server rendered the page for nobody in particular: the app renders it afresh for this
    // patient. A page whose HTML is not what they will see waits for it under a spinner, so its
    // code is what the page waits for.
    root.setAttribute(renderAfreshAttribute, '');
    if (code.withoutSession) root.setAttribute(waitingAttribute, '');
    wake({ lowPriority: !code.withoutSession }).catch(stayStatic);
  } else if (mustWakeNow() || root?.hasAttribute(liveAttribute)) {
    wake({ lowPriority: true }).catch(stayStatic);
  } else {
    // Intent: the app starts at the first touch, key or focus, before any click, unless it has
    // started while the patient read.
    for (const type of ['pointerdown', 'touchstart', 'keydown', 'focusin']) {
      document.addEventListener(type, () => wake().catch(stayStatic), {
        capture: true,
        once: true,
        passive: true,
      });
    }
    if (code.startsWhileReading) startWhileReading();
  }
}

// The card frame's return, inside our own payment page: the whole window goes to it instead, and
// this copy, about to go, shows nothing (as the app's own page does in a frame).
const frameTop = code.leavesFrame ? sameOriginTop(window) : null;
if (frameTop) {
  root?.style.setProperty('visibility', 'hidden');
  frameTop.location.replace(window.location.href);
} else {
  start();
}
