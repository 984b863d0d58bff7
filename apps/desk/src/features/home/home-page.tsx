import { Navigate } from 'react-router';
import { navFor } from '../../app/navigation';
import { useClinic } from '../../lib/session';

/** `/desk`: the first page the member's role works on. */
export function HomePage() {
  const { role } = useClinic();
  return <Navigate to={navFor(role)[0]?.path ?? '/account'} replace />;
}
