/** Route components of organizations, users and invitations; each page is its own chunk (app/router.tsx). */
import { UsersPage } from '../../features/users/components/UsersPage';
import { OrganizationPage } from '../../features/organizations/components/OrganizationPage';
import { OrganizationsPage } from '../../features/organizations/components/OrganizationsPage';
import { RequireAbility } from '../../components/RequireAbility';

/** /organizations: the organizations the person administers. */
export function OrganizationsRoute() {
  return <OrganizationsPage />;
}

/** /organizations/:organizationId: accounts, users and administrators of one organization. */
export function OrganizationRoute() {
  return <OrganizationPage />;
}

/** /users: users and invitations of the selected account. */
export function UsersRoute() {
  return (
    <RequireAbility ability="users.read" title="Users">
      <UsersPage />
    </RequireAbility>
  );
}
