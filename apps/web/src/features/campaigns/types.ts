/** Shapes of the campaigns endpoints (packages/contracts/src/campaigns.ts; spec 001 §3 "Campaign"). */
export type { Campaign, CampaignEvent, CampaignsUpdatedEvent, PageMeta } from '@switchboard/contracts';

/** Options the editor picks from (handed in by the app: features don't import each other). */
export interface Option {
  value: string;
  label: string;
  /** Active contacts of a group (for the send confirmation's recipient count). */
  count?: number;
}
