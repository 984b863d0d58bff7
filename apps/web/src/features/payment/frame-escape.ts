/** The parts of a window this check reads: enough to pass a fake one in tests. */
export interface WindowLike {
  readonly top: WindowLike | null;
  readonly self: WindowLike;
  readonly location: { readonly origin: string; replace(url: string): void };
}

/**
 * The window that holds this page in a frame of our own origin (the card frame returning to the
 * result route), or null: at top level, or framed by another origin, whose location we may not
 * read (the browser throws) and must not move.
 */
export function sameOriginTop(win: WindowLike): WindowLike | null {
  try {
    const top = win.top;
    if (!top || top === win.self) return null;
    return top.location.origin === win.location.origin ? top : null;
  } catch {
    return null;
  }
}
