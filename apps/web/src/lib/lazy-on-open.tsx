import { useEffect, useState, type ComponentType } from 'react';

/** Runs `task` once the browser is idle (Safari has no idle callback: a moment later there). */
function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(task, { timeout: 2_000 });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(task, 200);
  return () => window.clearTimeout(handle);
}

/**
 * A dialog, menu or message whose code is its own import: until it first opens it renders
 * nothing, as a closed one would, and it stays mounted afterwards, so closing keeps its
 * transition.
 *
 * Its code is imported once the page is idle after it mounts, so that the tap that opens it
 * renders it at once. Not with React's `lazy` and Suspense: even a module already in memory
 * suspends on its first render, and React then holds the content back for up to 300 ms after
 * showing the fallback (its throttling of revealed Suspense content), which is what a patient
 * saw as a dead first tap on the cancel dialog and the language menu. Opened before its code is
 * in (a tap in the page's first moment), it renders as soon as the code arrives.
 */
export function lazyOnOpen<P extends { open: boolean }>(
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  let Loaded: ComponentType<P> | null = null;
  let loading: Promise<unknown> | null = null;
  const preload = () => {
    loading ??= load().then(
      (component) => {
        Loaded = component;
      },
      (error: unknown) => {
        // A lost connection: the next opening tries again.
        loading = null;
        throw error;
      },
    );
    return loading;
  };

  function LazyOnOpen(props: P) {
    const [opened, setOpened] = useState(props.open);
    const [, setArrived] = useState(false);
    // Adjusting state while rendering, as React recommends for state derived from props.
    if (props.open && !opened) setOpened(true);
    useEffect(() => {
      if (Loaded) return;
      let mounted = true;
      const fetchCode = () =>
        void preload().then(
          () => mounted && setArrived(true),
          () => undefined,
        );
      let cancel = () => {};
      if (opened) fetchCode();
      else cancel = whenIdle(fetchCode);
      return () => {
        mounted = false;
        cancel();
      };
    }, [opened]);
    if (!opened || !Loaded) return null;
    return <Loaded {...props} />;
  }
  return LazyOnOpen;
}
