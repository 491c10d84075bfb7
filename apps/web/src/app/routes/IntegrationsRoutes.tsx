/** Route components of API keys, webhooks and the audit log; each page is its own chunk (app/router.tsx). */
import { ApiKeysPage } from '../../features/api-keys';
import { AuditLogPage } from '../../features/audit';
import { WebhooksPage } from '../../features/webhooks';
import { RequireAbility } from '../../components/RequireAbility';

/** /api-keys: the person's API keys (create, shown once, list with last use, delete). */
export function ApiKeysRoute() {
  return (
    <RequireAbility ability="integrations.manage" title="API keys">
      <ApiKeysPage />
    </RequireAbility>
  );
}

/** /webhooks: the company's outbound webhook endpoints, their secrets and delivery log. */
export function WebhooksRoute() {
  return (
    <RequireAbility ability="integrations.manage" title="Webhooks">
      <WebhooksPage />
    </RequireAbility>
  );
}

/** /audit-log: the company's audit log with filters and CSV export. */
export function AuditLogRoute() {
  return (
    <RequireAbility ability="audit.read" title="Audit log">
      <AuditLogPage />
    </RequireAbility>
  );
}
