import { Navigate } from 'react-router';
import { navFor } from '../../lib/navigation';
import { PageLoading } from '../../lib/page-loading';
import { useClinic } from '../../lib/session';
import { useSetupChecklist } from '../../lib/setup-checklist';

/**
 * `/desk`: an owner whose clinic patients cannot book yet goes on with its set-up; everyone else
 * to the first page their role works on (set-up aside, once the clinic is ready).
 */
export function HomePage() {
  const { role, isOwner } = useClinic();
  const checklist = useSetupChecklist({ enabled: isOwner });
  const items = navFor(role);
  if (isOwner) {
    if (checklist.isPending) return <PageLoading />;
    if (checklist.data && !checklist.data.ready_for_patients)
      return <Navigate to="/setup" replace />;
    const first = items.find((item) => item.path !== '/setup') ?? items[0];
    return <Navigate to={first?.path ?? '/account'} replace />;
  }
  return <Navigate to={items[0]?.path ?? '/account'} replace />;
}
