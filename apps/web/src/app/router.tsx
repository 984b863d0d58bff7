import type { ComponentType } from 'react';
import { createBrowserRouter, matchRoutes, Navigate, type RouteObject } from 'react-router';
import { LandingPage } from '../features/landing/landing-page';
import { LoadingView } from '../lib/loading-view';
import type { AppConfig } from './config';
import { AppLayout } from './layouts/app-layout';
import { ContainerLayout } from './layouts/container-layout';
import { LandingLayout } from './layouts/landing-layout';
import { RouteError } from './layouts/route-error';
import type { RouteHandle } from './route-handle';

/** A page whose code loads on first visit; the spinner shows only on a cold start on that page. */
function page(
  name: string,
  titleKey: RouteHandle['titleKey'],
  loadComponent: () => Promise<ComponentType>,
): Pick<RouteObject, 'id' | 'handle' | 'HydrateFallback' | 'lazy'> {
  return {
    id: name,
    handle: { name, titleKey } satisfies RouteHandle,
    HydrateFallback: LoadingView,
    lazy: { Component: loadComponent },
  };
}

/**
 * The route table (docs/product/site.md#routes). The landing page is in the entry chunk: '/' is the
 * most visited page and would otherwise wait for a second request; every other page is its own
 * chunk.
 */
export function createRoutes(
  config: Pick<AppConfig, 'parentSiteUrl' | 'publicOrigin'>,
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
          children: [
            {
              path: 'privacy',
              ...page('privacy-page', 'legal.privacy', async () => {
                return (await import('../features/legal/privacy-page')).PrivacyPage;
              }),
            },
            {
              path: 'terms',
              ...page('terms-page', 'legal.terms', async () => {
                return (await import('../features/legal/terms-page')).TermsPage;
              }),
            },
            {
              path: 'accessibility',
              ...page('accessibility-page', 'legal.accessibility', async () => {
                return (await import('../features/legal/accessibility-page')).AccessibilityPage;
              }),
            },
            {
              // The title becomes the clinic's name once it has loaded (see usePageTitle).
              path: 'clinic/:clinicId/:clinicName?',
              ...page('clinic-page', 'app.title', async () => {
                return (await import('../features/clinic/clinic-page')).ClinicPage;
              }),
            },
            {
              path: 'login/:clinicId',
              ...page('login-page', 'patientAuth.title', async () => {
                return (await import('../features/patient-auth/login-page')).LoginPage;
              }),
            },
            {
              path: 'booking/:clinicId',
              ...page('booking-page', 'booking.title', async () => {
                return (await import('./clinic-flow-routes')).BookingRoute;
              }),
            },
            {
              path: 'booking/:clinicId/confirmation',
              ...page('booking-confirmation-page', 'booking.confirmation.title', async () => {
                return (await import('../features/booking/confirmation-page')).ConfirmationPage;
              }),
            },
            {
              path: 'appointments/:clinicId',
              ...page('appointments-page', 'appointments.title', async () => {
                return (await import('./clinic-flow-routes')).AppointmentsRoute;
              }),
            },
            {
              path: 'q/:token',
              ...page('intake-form-page', 'intakeForm.title', async () => {
                return (await import('../features/intake-form/intake-form-page')).IntakeFormPage;
              }),
            },
            {
              path: 'p/:token',
              ...page('payment-request-page', 'payment.title', async () => {
                return (await import('../features/payment/payment-request-page'))
                  .PaymentRequestPage;
              }),
            },
            {
              // The payment provider's segment; its success and fail return address
              // (docs/product/payments.md#result).
              path: 'tranzila/:token',
              ...page('payment-result-page', 'payment.result.title', async () => {
                return (await import('../features/payment/payment-result-page')).PaymentResultPage;
              }),
            },
            {
              path: 'completed',
              ...page('completed-page', 'status.completed.heading', async () => {
                return (await import('../features/status-pages/completed-page')).CompletedPage;
              }),
            },
            {
              path: 'expired',
              ...page('expired-page', 'status.expired.heading', async () => {
                return (await import('../features/status-pages/expired-page')).ExpiredPage;
              }),
            },
            {
              path: 'shaam-auth',
              ...page('shaam-auth-page', 'shaamAuth.title', async () => {
                return (await import('../features/shaam-auth/shaam-auth-page')).ShaamAuthPage;
              }),
            },
            {
              // The server serves this path under its own CSP, which lets Meta's SDK in.
              path: 'whatsapp-signup/:clientId?',
              ...page('whatsapp-signup-page', 'whatsappSignup.title', async () => {
                return (await import('../features/whatsapp-signup/whatsapp-signup-page'))
                  .WhatsAppSignupPage;
              }),
            },
          ],
        },
      ],
    },
  ];
}

/**
 * Loads the lazy code of the routes a page at `location` renders, and of the routes named by
 * `alsoIds` (the pages it leads to whose code came with its own, PageCodeManifest.nextRoutes), in place:
 * - a prerendered page is hydrated with exactly what the server rendered, never with the loading
 *   spinner;
 * - a tap to one of the pages it leads to is one render of that page (ADR 034). To a
 *   route whose code the router must still ask for, even code already fetched, a navigation first
 *   renders the whole current page again in the router's loading state, then the new one.
 */
export async function loadRoutes(
  routes: RouteObject[],
  location: string,
  alsoIds: readonly string[] = [],
): Promise<void> {
  const load = async (route: RouteObject) => {
    if (typeof route.lazy !== 'object' || !route.lazy.Component) return;
    route.Component = await route.lazy.Component();
    delete route.lazy;
  };
  const matched = (matchRoutes(routes, location) ?? []).map(({ route }) => route);
  const named = (list: RouteObject[]): RouteObject[] =>
    list.flatMap((route) => [
      ...(route.id && alsoIds.includes(route.id) && !matched.includes(route) ? [route] : []),
      ...named(route.children ?? []),
    ]);
  await Promise.all([
    ...matched.map(load),
    // Only a help: a page whose code did not come stays lazy, loaded when visited.
    ...named(routes).map((route) => load(route).catch(() => undefined)),
  ]);
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
