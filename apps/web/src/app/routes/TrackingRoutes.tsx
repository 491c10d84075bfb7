/**
 * Route components of the call tracking (DNI) pages; each page is its own chunk (app/router.tsx). The
 * compositions hand the tracking screens what other features own (features don't import each other): the
 * company's numbers (pool numbers, fallback, static sources), the TrackingPool custom fields (entity type 3),
 * and the pools table's column chooser with saved presets (report kind `call_tracking_pools`).
 */
import { EAV_ENTITY_TYPES } from '@switchboard/domain';
import { useParams } from 'react-router';
import { useAttributes } from '../../features/custom-fields/api/get-attributes';
import { useCompanyNumbers } from '../../features/numbers/api/get-numbers';
import { ColumnChooser, useColumnPreset } from '../../features/report-preferences';
import { BulkUpdatePage } from '../../features/tracking/components/BulkUpdatePage';
import { FeedPage } from '../../features/tracking/components/FeedPage';
import { LeadPage } from '../../features/tracking/components/LeadPage';
import { LeadsPage } from '../../features/tracking/components/LeadsPage';
import { PoolEditorPage, type CompanyNumberOption } from '../../features/tracking/components/PoolEditorPage';
import { DEFAULT_POOL_COLUMNS, POOL_COLUMNS, PoolsPage } from '../../features/tracking/components/PoolsPage';
import { ReportsPage } from '../../features/tracking/components/ReportsPage';
import { ScriptPage } from '../../features/tracking/components/ScriptPage';
import { SessionPage } from '../../features/tracking/components/SessionPage';
import { SourcesPage } from '../../features/tracking/components/SourcesPage';
import { RequireAbility } from '../../components/RequireAbility';
import { ReadOnly } from '../../components/ReadOnly';
import { useCan } from '../../lib/access';

function useNumberOptions(): CompanyNumberOption[] {
  const numbers = useCompanyNumbers();
  return (numbers.data?.data ?? []).map((n) => ({ id: n.id, number: n.number, label: n.label ?? null }));
}

const POOL_COLUMN_OPTIONS = POOL_COLUMNS.map((c) => ({ key: c.key, label: c.label }));

export function TrackingPoolsRoute() {
  const preset = useColumnPreset('call_tracking_pools', { defaultColumns: DEFAULT_POOL_COLUMNS, available: POOL_COLUMN_OPTIONS.map((o) => o.key) });
  return (
    <RequireAbility ability="tracking.read" title="Tracking pools">
      <PoolsPage columns={preset.columns} columnTools={<ColumnChooser options={POOL_COLUMN_OPTIONS} preset={preset} />} />
    </RequireAbility>
  );
}

export function TrackingPoolRoute() {
  const { poolId } = useParams();
  const id = Number(poolId);
  const attributes = useAttributes(EAV_ENTITY_TYPES.TrackingPool);
  const canManage = useCan('tracking.manage');
  // A new pool needs `tracking.manage`; an existing one is shown read-only to roles that only read tracking.
  return (
    <RequireAbility ability={poolId === 'new' ? 'tracking.manage' : 'tracking.read'} title="Tracking pool">
      <ReadOnly when={!canManage}>
        <PoolEditorPage
          poolId={poolId === 'new' ? null : Number.isInteger(id) && id > 0 ? id : -1}
          companyNumbers={useNumberOptions()}
          attributes={attributes.data?.data ?? []}
        />
      </ReadOnly>
    </RequireAbility>
  );
}

export function TrackingSourcesRoute() {
  return (
    <RequireAbility ability="tracking.read" title="Tracking sources">
      <SourcesPage companyNumbers={useNumberOptions()} />
    </RequireAbility>
  );
}

export function TrackingScriptRoute() {
  return (
    <RequireAbility ability="tracking.read" title="Tracking script">
      <ScriptPage />
    </RequireAbility>
  );
}

export function TrackingFeedRoute() {
  return (
    <RequireAbility ability="reports.read" title="Real-time feed">
      <FeedPage />
    </RequireAbility>
  );
}

export function TrackingSessionRoute() {
  const { sessionId } = useParams();
  return (
    <RequireAbility ability="reports.read" title="Visitor session">
      <SessionPage sessionId={sessionId ?? ''} />
    </RequireAbility>
  );
}

export function TrackingLeadsRoute() {
  return (
    <RequireAbility ability="reports.read" title="Leads">
      <LeadsPage />
    </RequireAbility>
  );
}

export function TrackingLeadRoute() {
  const { leadId } = useParams();
  return (
    <RequireAbility ability="reports.read" title="Lead">
      <LeadPage leadId={Number(leadId)} />
    </RequireAbility>
  );
}

export function TrackingReportsRoute() {
  return (
    <RequireAbility ability="reports.read" title="Tracking reports">
      <ReportsPage />
    </RequireAbility>
  );
}

export function TrackingBulkUpdateRoute() {
  return (
    <RequireAbility ability="tracking.manage" title="Bulk attribute update">
      <BulkUpdatePage />
    </RequireAbility>
  );
}
