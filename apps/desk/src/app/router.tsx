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
            path: '/patients',
            ...page(async () => ({
              Page: (await import('../features/patients/patients-page')).PatientsPage,
            })),
          },
          {
            path: '/patients/:idNumber',
            ...page(async () => ({
              Page: (await import('../features/patients/patient-page')).PatientPage,
            })),
          },
          {
            path: '/forms',
            ...page(async () => ({
              Page: (await import('../features/forms/forms-page')).FormsPage,
            })),
          },
          {
            path: '/forms/:id',
            ...page(async () => ({
              Page: (await import('../features/forms/form-request-page')).FormRequestPage,
            })),
          },
          {
            path: '/payments',
            ...page(async () => ({
              Page: (await import('../features/payments/payments-page')).PaymentsPage,
            })),
          },
          {
            path: '/waitlist',
            ...page(async () => ({
              Page: (await import('../features/waitlist/waitlist-page')).WaitlistPage,
            })),
          },
          {
            path: '/integrations',
            ...page(async () => ({
              Page: (await import('../features/integrations/integrations-page')).IntegrationsPage,
            })),
          },
          {
            path: '/problems',
            ...page(async () => ({
              Page: (await import('../features/problems/problems-page')).ProblemsPage,
            })),
          },
          {
            path: '/audit',
            ...page(async () => ({
              Page: (await import('../features/audit/audit-page')).AuditPage,
            })),
          },
          {
            path: '/setup',
            ...page(async () => ({
              Page: (await import('../features/setup/setup-page')).SetupPage,
            })),
          },
          {
            path: '/setup/profile',
            ...page(async () => ({
              Page: (await import('../features/setup/profile-page')).ProfilePage,
            })),
          },
          {
            path: '/setup/hours',
            ...page(async () => ({
              Page: (await import('../features/setup/hours-page')).HoursPage,
            })),
          },
          {
            path: '/setup/closures',
            ...page(async () => ({
              Page: (await import('../features/setup/closures-page')).ClosuresPage,
            })),
          },
          {
            path: '/setup/rules',
            ...page(async () => ({
              Page: (await import('../features/setup/rules-page')).RulesPage,
            })),
          },
          {
            path: '/setup/reminders',
            ...page(async () => ({
              Page: (await import('../features/setup/reminders-page')).RemindersPage,
            })),
          },
          {
            path: '/account',
            ...page(async () => ({
              Page: (await import('../features/account/account-page')).AccountPage,
            })),
          },
          {
            path: '/staff',
            ...page(async () => ({
              Page: (await import('../features/staff/staff-page')).StaffPage,
            })),
          },
          {
            path: '/setup/caregivers',
            ...page(async () => ({
              Page: (await import('../features/setup-team/caregivers-page')).CaregiversPage,
            })),
          },
          {
            path: '/setup/caregivers/new',
            ...page(async () => ({
              Page: (await import('../features/setup-team/caregiver-page')).CaregiverPage,
            })),
          },
          {
            path: '/setup/caregivers/:id',
            ...page(async () => ({
              Page: (await import('../features/setup-team/caregiver-page')).CaregiverPage,
            })),
          },
          {
            path: '/setup/types',
            ...page(async () => ({
              Page: (await import('../features/setup-team/types-page')).TypesPage,
            })),
          },
          {
            path: '/setup/channel',
            ...page(async () => ({
              Page: (await import('../features/setup-connections/channel-page')).ChannelPage,
            })),
          },
          {
            path: '/setup/terminal',
            ...page(async () => ({
              Page: (await import('../features/setup-connections/terminal-page')).TerminalPage,
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
