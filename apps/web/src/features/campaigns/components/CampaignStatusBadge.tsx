import { Badge } from '@mantine/core';
import { CAMPAIGN_FILTER_LABELS, campaignDisplayStatus } from '@switchboard/domain';

const COLORS: Record<string, string> = {
  draft: 'gray',
  scheduled: 'indigo',
  'in-progress': 'blue',
  paused: 'yellow',
  sent: 'teal',
  canceled: 'dark',
  failed: 'red',
};

/** The displayed status of a campaign (domain campaignDisplayStatus) with the spec's label. */
export function CampaignStatusBadge({ state, shouldBeSentAt }: { state: string; shouldBeSentAt: string | null }) {
  const status = campaignDisplayStatus(state, shouldBeSentAt);
  const label = CAMPAIGN_FILTER_LABELS.find((f) => f.value === status)?.label ?? status;
  return (
    <Badge color={COLORS[status] ?? 'gray'} variant="light" data-testid="campaign-status" data-status={status}>
      {label}
    </Badge>
  );
}
