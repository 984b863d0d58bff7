import { lazy, Suspense, useState, type ComponentType } from 'react';

/**
 * A dialog, menu or message whose code loads the first time it opens: until then it renders
 * nothing, as a closed one would. It stays mounted afterwards, so closing keeps its transition.
 * Its first opening waits for the chunk (a moment on a phone); Suspense shows nothing meanwhile.
 */
export function lazyOnOpen<P extends { open: boolean }>(
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  const Loaded = lazy(async () => ({ default: await load() }));
  function LazyOnOpen(props: P) {
    const [opened, setOpened] = useState(props.open);
    // Adjusting state while rendering, as React recommends for state derived from props.
    if (props.open && !opened) setOpened(true);
    if (!opened) return null;
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    );
  }
  return LazyOnOpen;
}
