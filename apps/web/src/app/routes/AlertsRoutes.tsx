/** Route components of the alerts and favourite reports; each page is its own chunk (app/router.tsx). */
import { AlertsPage } from '../../features/alerts';
import { FavoriteReportsPage } from '../../features/report-preferences';
import { RequireAbility } from '../../components/RequireAbility';

/** /alerts: alerts with counts, detail, history, dismiss with a reason; the monitors' settings. */
export function AlertsRoute() {
  return (
    <RequireAbility ability="alerts.read" title="Alerts">
      <AlertsPage />
    </RequireAbility>
  );
}

/** /favorite-reports: the person's favourite reports (open, rename, delete). */
export function FavoriteReportsRoute() {
  return <FavoriteReportsPage />;
}
