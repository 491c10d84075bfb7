import { formatPhone } from '@switchboard/domain';
import { useParams } from 'react-router';
import { CampaignDetail } from '../../features/campaigns/components/CampaignDetail';
import { CampaignEditor } from '../../features/campaigns/components/CampaignEditor';
import { useGroups } from '../../features/groups/api/get-groups';
import { useCompanyNumbers } from '../../features/numbers/api/get-numbers';
import { useCompanySettings } from '../../features/settings/api/company-settings';
import { RequireAbility } from '../../components/RequireAbility';

/** The company's groups and numbers as the campaign screens' options. */
function useCampaignOptions() {
  const groups = useGroups();
  const numbers = useCompanyNumbers();
  return {
    loading: groups.isPending || numbers.isPending,
    groups: (groups.data?.data ?? []).map((g) => ({ value: String(g.id), label: `${g.name} (${g.active_count} active)`, name: g.name, count: g.active_count })),
    numbers: (numbers.data?.data ?? []).map((n) => ({ value: String(n.id), label: `${formatPhone(n.number)}${n.label ? ` · ${n.label}` : ''}` })),
  };
}

/** `/campaigns/new` and `/campaigns/:campaignId/edit`; links are allowed when the company's settings say so. */
export function CampaignEditorRoute() {
  const { campaignId } = useParams();
  const options = useCampaignOptions();
  const settings = useCompanySettings();
  return (
    <RequireAbility ability="campaigns.manage" title={campaignId ? 'Edit campaign' : 'New campaign'}>
      <CampaignEditor
        key={campaignId ?? 'new'}
        campaignId={campaignId ? Number(campaignId) : null}
        groups={options.groups.map(({ value, label, count }) => ({ value, label, count }))}
        numbers={options.numbers}
        loadingOptions={options.loading}
        linksEnabled={settings.data?.data.links_enabled ?? false}
      />
    </RequireAbility>
  );
}

/** `/campaigns/:campaignId`. */
export function CampaignDetailRoute() {
  const { campaignId } = useParams();
  const options = useCampaignOptions();
  return (
    <RequireAbility ability="campaigns.read" title="Campaign">
      <CampaignDetail
        campaignId={Number(campaignId)}
        groupName={(id) => options.groups.find((g) => g.value === String(id))?.name ?? `Group ${id}`}
        numberLabel={(id) => options.numbers.find((n) => n.value === String(id))?.label ?? 'a number'}
      />
    </RequireAbility>
  );
}
