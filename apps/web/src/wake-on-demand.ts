// The only script a page painted from HTML loads at first when it has no field to fill in (the
// landing, legal and status pages, the clinic page): ADR 025. The app's code (React, the router,
// MUI) loads when the patient first touches, clicks, focuses or types, and a click that came
// before it is run again on the same element once the page has hydrated (hydration keeps the
// server's elements). Pages the app must render at once wake at once: another language than the
// HTML's, a stored session to check (SPEC § 4), a clinic address to rewrite.
import { languageStorageKey, prerenderLanguage, toLanguage } from './app/i18n/languages';
import { appCodeElementId, appReadyEvent, type AppCode } from './app/wake-signal';
import { normaliseClinicName } from './lib/clinic/normalise-clinic-name';
import { tokenStorageKey } from './lib/token-storage-key';

const code = JSON.parse(document.getElementById(appCodeElementId)?.textContent ?? '') as AppCode;

/** Elements whose click does something: the ones a click is held back and run again for. */
const actionable =
  'a[href], button, summary, label, input, select, textarea, [role="button"], [tabindex]:not([tabindex="-1"])';

let woken: Promise<void> | undefined;
let heldBack: HTMLElement | null = null;

function wake(): Promise<void> {
  woken ??= new Promise<void>((resolve, reject) => {
    document.addEventListener(appReadyEvent, () => resolve(), { once: true });
    for (const href of code.preload) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    }
    import(/* @vite-ignore */ code.entry).catch(reject);
  }).finally(() => document.removeEventListener('click', holdBack, true));
  return woken;
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
  const first = heldBack === null;
  heldBack = element;
  document.documentElement.style.cursor = 'progress';
  if (!first) return;
  wake().then(
    () => {
      document.documentElement.style.cursor = '';
      if (heldBack?.isConnected) heldBack.click();
    },
    () => {
      // The app's code did not arrive (a lost connection): a link still goes where it points.
      document.documentElement.style.cursor = '';
      if (heldBack instanceof HTMLAnchorElement) window.location.assign(heldBack.href);
    },
  );
}

/** Whether the app must render the page now rather than when the patient acts on it. */
function mustWakeNow(): boolean {
  try {
    const storage = window.localStorage;
    if (toLanguage(storage.getItem(languageStorageKey)) !== prerenderLanguage) return true;
    if (storage.getItem(tokenStorageKey)) return true;
    // The clinic page rewrites its address with the clinic's name in canonical form (SPEC § 2).
    const name = /^\/clinic\/[^/]+\/([^/]+)\/?$/i.exec(window.location.pathname)?.[1];
    return (
      name !== undefined &&
      normaliseClinicName(decodeURIComponent(name)) !== decodeURIComponent(name)
    );
  } catch {
    // No storage to read (blocked by the browser) or an address that does not decode: let the
    // app decide.
    return true;
  }
}

// Without its code the page still reads, and its links still go where they point.
const stayStatic = () => undefined;

if (mustWakeNow()) {
  wake().catch(stayStatic);
} else {
  document.addEventListener('click', holdBack, true);
  // Intent: the code starts loading at the first touch, key or focus, before any click.
  for (const type of ['pointerdown', 'touchstart', 'keydown', 'focusin']) {
    document.addEventListener(type, () => wake().catch(stayStatic), {
      capture: true,
      once: true,
      passive: true,
    });
  }
}
