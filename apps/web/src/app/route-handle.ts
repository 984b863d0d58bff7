import type { ParseKeys } from 'i18next';

/** Metadata every route carries in its `handle`. */
export interface RouteHandle {
  name: string;
  titleKey: ParseKeys;
}

export const defaultTitleKey = 'app.title' satisfies ParseKeys;

export function isRouteHandle(handle: unknown): handle is RouteHandle {
  return (
    typeof handle === 'object' &&
    handle !== null &&
    typeof (handle as RouteHandle).name === 'string' &&
    typeof (handle as RouteHandle).titleKey === 'string'
  );
}
