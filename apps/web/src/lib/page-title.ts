import { useEffect } from 'react';
import { create } from 'zustand';

const usePageTitleStore = create<{ title: string | null }>()(() => ({ title: null }));

/**
 * Titles the document with a runtime text (a clinic's name, say) instead of the route's titleKey
 * while the calling page is mounted; nothing (undefined, '') keeps the route's title.
 */
export function usePageTitle(title: string | null | undefined): void {
  useEffect(() => {
    if (!title) return;
    usePageTitleStore.setState({ title });
    return () => usePageTitleStore.setState({ title: null });
  }, [title]);
}

/** For the navigation guard: the title a page asked for, if any. */
export function usePageTitleOverride(): string | null {
  return usePageTitleStore((state) => state.title);
}
