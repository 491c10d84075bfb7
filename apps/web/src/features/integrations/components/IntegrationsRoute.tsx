/** The /integrations route (app/router.tsx): owners and administrators (`integrations.manage`). */
import { RequireAbility } from '../../../components/RequireAbility';
import { IntegrationsPage } from './IntegrationsPage';

export function IntegrationsRoute() {
  return (
    <RequireAbility ability="integrations.manage" title="Integrations">
      <IntegrationsPage />
    </RequireAbility>
  );
}
