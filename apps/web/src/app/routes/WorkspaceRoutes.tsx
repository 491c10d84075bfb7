/** Route components of general settings, tags, data groups, tenant and support; each page is its own chunk (app/router.tsx). */
import { DataGroupsPage } from '../../features/data-groups';
import { GeneralSettingsPage } from '../../features/general-settings';
import { SupportPage } from '../../features/support';
import { TagsPage } from '../../features/tags';
import { TenantPage } from '../../features/tenant';
import { ReadOnly } from '../../components/ReadOnly';
import { RequireAbility } from '../../components/RequireAbility';
import { useCan } from '../../lib/access';

/** /general-settings */
export function GeneralSettingsRoute() {
  // Everyone in the company reads the settings; the page itself keeps them read-only without `settings.manage`.
  return <GeneralSettingsPage />;
}

/** /tags */
export function TagsRoute() {
  return (
    <RequireAbility ability="calls.work" title="Tags">
      <TagsPage />
    </RequireAbility>
  );
}

/** /data-groups */
export function DataGroupsRoute() {
  // Data groups change with `settings.manage`; other roles see them read-only.
  return (
    <ReadOnly when={!useCan('settings.manage')}>
      <DataGroupsPage />
    </ReadOnly>
  );
}

/** /tenant */
export function TenantRoute() {
  // Branding and the custom domain change with `settings.manage`; other roles see them read-only.
  return (
    <ReadOnly when={!useCan('settings.manage')}>
      <TenantPage />
    </ReadOnly>
  );
}

/** /support */
export function SupportRoute() {
  return <SupportPage />;
}
