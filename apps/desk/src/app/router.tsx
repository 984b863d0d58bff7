import { createBrowserRouter, Navigate, useLocation, type RouteObject } from 'react-router';
import { PageLoading } from '../lib/page-loading';
import { useStaffSession } from '../lib/session';
import { DeskLayout } from './layouts/desk-layout';
import { RouteError } from './layouts/route-error';

/** The signed-in pages: without a session, the sign-in page, which leads back here after. */
function RequireSession() {
  const session = useStaffSession();
  const location = useLocation();
  if (session.isPending) return <PageLoading />;
  if (session.isError) throw session.error;
  if (!session.data) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={`/sign-in?next=${encodeURIComponent(next)}`} replace />;
  }
  return <DeskLayout session={session.data} />;
}

/** Each feature's page, as a chunk of its own. */
const page = (load: () => Promise<{ Page: React.ComponentType }>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).Page }),
});

export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    // The first page's code loads before anything shows (no server rendering here).
    hydrateFallbackElement: <PageLoading />,
    children: [
      {
        path: '/sign-in',
        ...page(async () => ({
          Page: (await import('../features/sign-in/sign-in-page')).SignInPage,
        })),
      },
      {
        path: '/invite/:token',
        ...page(async () => ({
          Page: (await import('../features/sign-in/invitation-page')).InvitationPage,
        })),
      },
      {
        element: <RequireSession />,
        children: [
          {
            index: true,
            ...page(async () => ({ Page: (await import('../features/home/home-page')).HomePage })),
          },
          {
            path: '/diary',
            ...page(async () => ({
              Page: (await import('../features/diary/diary-page')).DiaryPage,
            })),
          },
          {
            path: '/account',
            ...page(async () => ({
              Page: (await import('../features/account/account-page')).AccountPage,
            })),
          },
          {
            path: '*',
            ...page(async () => ({
              Page: (await import('./layouts/not-found-page')).NotFoundPage,
            })),
          },
        ],
      },
    ],
  },
];

export const createDeskRouter = () => createBrowserRouter(routes, { basename: '/desk' });
