/** The app's index (`/`): sends the person to the first screen their role may use (docs/permissions.md). */
import { Navigate } from 'react-router';
import { useSession } from '../../lib/session';
import { homePath } from '../layout/NavItems';

/** Redirects `/` to the person's home screen (the inbox for agents, the dashboard for reporting, …). */
export function HomeRoute() {
  return <Navigate to={homePath(useSession())} replace />;
}
