/** Route components of the operators' tools (app/router.tsx); each page is its own chunk. */
import { useAdminSession } from '../../features/auth/api/admin-session';
import { EventDeliveryPage, type OperatorAccess } from '../../features/ops';

/**
 * /ops/outbox, "Event delivery" (docs/operations.md "Domain-event outbox"): for an operator in their own session, the
 * admin session's `can_open_accounts` (the same person `access.operator()` lets through); anyone else, an operator
 * acting in an account included, sees "not available".
 */
export function OpsOutboxRoute() {
  const admin = useAdminSession();
  const access: OperatorAccess = admin.isPending
    ? 'checking'
    : admin.isError
      ? 'unknown'
      : admin.data.can_open_accounts
        ? 'operator'
        : admin.data.isAdmin
          ? 'admin-mode'
          : 'none';
  return <EventDeliveryPage access={access} onRetryAccess={() => void admin.refetch()} />;
}
