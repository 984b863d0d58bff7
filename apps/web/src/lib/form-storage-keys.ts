// Where a form link's unsent answers wait in this tab (ADR 016, amended): their own module, so
// the script that wakes a page painted from HTML (ADR 025) can see them without loading the form.

const unsentPrefix = 'marpe.form-unsent.';

/**
 * A link's answers that were not yet confirmed saved when the page was hidden or left, in
 * sessionStorage (this tab only), until the server confirms them.
 */
export function unsentAnswersKey(token: string): string {
  return `${unsentPrefix}${token}`;
}

/** The form link of a page's path (`/q/:token`), or null. */
export function formTokenOfPath(pathname: string): string | null {
  const match = /^\/q\/([^/]+)\/?$/.exec(pathname);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}
