import { patientPages } from '@marpe/shared/rules';
import type { ComponentType } from 'react';
import { createBrowserRouter, matchRoutes, Navigate, type RouteObject } from 'react-router';
import { LandingPage } from '../features/landing/landing-page';
import type { AppConfig } from '../lib/config';
import { LoadingView } from '../lib/loading-view';
import { AppLayout } from './layouts/app-layout';
import { ContainerLayout } from './layouts/container-layout';
import { LandingLayout } from './layouts/landing-layout';
import { RouteError } from './layouts/route-error';
import { isLazyPageId, lazyPageIds, webPages, type LazyPageId } from './pages';
import type { RouteHandle } from './route-handle';

/** Page components already loaded, by page id: their routes are not lazy. */
export type LoadedPages = ReadonlyMap<LazyPageId, ComponentType>;

/**
 * A page of the registry (app/pages.ts) as a route. Its code loads on first visit, and the
 * spinner shows only on a cold start on that page; one already loaded is rendered at once.
 */
function pageRoute(id: LazyPageId, loaded: LoadedPages): RouteObject {
  const { titleKey, load } = webPages[id];
  const Component = loaded.get(id);
  return {
    // Relative to the pathless layouts above it.
    path: patientPages[id].path.slice(1),
    id,
    handle: { name: id, titleKey } satisfies RouteHandle,
    HydrateFallback: LoadingView,
    ...(Component ? { Component } : { lazy: { Component: load } }),
  };
}

/**
 * The route table, derived from the page registry (docs/pages.md). The landing page is in the
 * entry chunk: '/' is the most visited page and would otherwise wait for a second request; every
 * other page is its own chunk (or its flow's). `loaded`: pages whose code is in already
 * (loadPages), rendered without a loading state.
 */
export function createRoutes(
  config: Pick<AppConfig, 'parentSiteUrl' | 'publicOrigin'>,
  loaded: LoadedPages = new Map(),
): RouteObject[] {
  return [
    {
      id: 'root',
      element: <AppLayout publicOrigin={config.publicOrigin} />,
      ErrorBoundary: RouteError,
      children: [
        {
          Component: LandingLayout,
          ErrorBoundary: RouteError,
          children: [
            {
              index: true,
              id: 'home-page',
              handle: { name: 'home-page', titleKey: 'app.title' } satisfies RouteHandle,
              element: <LandingPage parentSiteUrl={config.parentSiteUrl} />,
            },
          ],
        },
        { path: '*', element: <Navigate to="/" replace /> },
        {
          Component: ContainerLayout,
          ErrorBoundary: RouteError,
          children: lazyPageIds.map((id) => pageRoute(id, loaded)),
        },
      ],
    },
  ];
}

/** Only for matching an address: the routes' elements are never rendered. */
const placeholderConfig = { parentSiteUrl: '', publicOrigin: '' };

/**
 * Loads the code of the pages `location` renders, and of the pages named by `alsoIds` (those it
 * leads to whose code came with its own, PageCodeManifest.nextRoutes), for createRoutes:
 * - a prerendered page is hydrated with exactly what the server rendered, never with the loading
 *   spinner;
 * - a tap to one of the pages it leads to is one render of that page (ADR 034). To a
 *   route whose code the router must still ask for, even code already fetched, a navigation first
 *   renders the whole current page again in the router's loading state, then the new one.
 */
export async function loadPages(
  location: string,
  alsoIds: readonly string[] = [],
): Promise<LoadedPages> {
  const matched = (matchRoutes(createRoutes(placeholderConfig), location) ?? [])
    .map(({ route }) => route.id)
    .filter(isLazyPageId);
  const also = alsoIds.filter(isLazyPageId).filter((id) => !matched.includes(id));
  const entries = await Promise.all([
    ...matched.map(async (id) => [id, await webPages[id].load()] as const),
    // Only a help: a page whose code did not come stays lazy, loaded when visited.
    ...also.map((id) =>
      webPages[id].load().then(
        (Component) => [id, Component] as const,
        () => undefined,
      ),
    ),
  ]);
  return new Map(entries.filter((entry) => entry !== undefined));
}

export function createAppRouter(routes: RouteObject[]) {
  return createBrowserRouter(routes);
}

/**
 * The router's rendering, the same in the app and its tests. `useTransitions: false`: a
 * navigation renders the next page as one ordinary update rather than in slices of a transition,
 * which made a slow phone's tap slower and gave nothing here, since no page's code suspends while
 * it renders (why and the figures: ADR 034).
 */
export const routerProviderProps = { useTransitions: false } as const;
