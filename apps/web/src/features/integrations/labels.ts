/** Words shown for the integrations' states, delivery kinds and outcomes (contracts `ad-integrations.ts`, `calls.ts`). */
import type { AdDeliveryKind, AdDeliveryState, AdIntegration, AdProvider, OAuthProvider } from '@switchboard/contracts';
import { CALL_OUTCOMES } from '@switchboard/contracts';

/** What each provider is for (card description). */
export const PROVIDER_BLURB: Record<AdProvider, string> = {
  ga4: 'Send calls as lead events to your web stream, joined to the visitor’s web session.',
  googleads: 'Upload calls and outcomes as conversions so bidding learns from real calls.',
  microsoftads: 'Send offline conversions for calls from Microsoft Advertising clicks.',
  metaads: 'Send calls to your pixel through the Conversions API.',
  slackbot: 'Post missed calls, voicemails, new leads and texts to a channel.',
  salesforce: 'Create leads and log each call as a task.',
  gohighlevel: 'Upsert contacts and log calls in a HighLevel location.',
  hubspot: 'Upsert contacts and log each call as a call engagement.',
  adf: 'E-mail each lead as ADF/XML to a car dealer’s CRM.',
};

export const STATE_LABEL: Record<AdIntegration['state'] | 'none', { label: string; color: string }> = {
  none: { label: 'Not connected', color: 'gray' },
  pending: { label: 'Not connected', color: 'gray' },
  connected: { label: 'Finish setup', color: 'yellow' },
  active: { label: 'Active', color: 'green' },
  needs_reconnect: { label: 'Needs reconnect', color: 'red' },
  inactive: { label: 'Disconnected', color: 'gray' },
};

export const KIND_LABEL: Record<AdDeliveryKind, string> = {
  call: 'Call',
  lead: 'New lead',
  text: 'Text',
  outcome: 'Outcome',
  'outcome-adjustment': 'Outcome changed',
  'missed-call': 'Missed call',
  voicemail: 'Voicemail',
};

export const DELIVERY_STATE: Record<AdDeliveryState, { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'yellow' },
  delivered: { label: 'Delivered', color: 'green' },
  duplicate: { label: 'Duplicate', color: 'teal' },
  skipped: { label: 'Skipped', color: 'gray' },
  rejected: { label: 'Rejected', color: 'red' },
  failed: { label: 'Failed', color: 'red' },
  waiting: { label: 'Waiting for reconnect', color: 'orange' },
};

export const OUTCOME_LABEL: Record<(typeof CALL_OUTCOMES)[number], string> = {
  appt_booked: 'Appointment booked',
  vehicle_ordered: 'Vehicle ordered',
  parts_ordered: 'Parts ordered',
  get_back_commitment: 'Promised to get back',
  not_opportunity: 'Not an opportunity',
  opportunity: 'Opportunity',
  unknown: 'Unknown',
};

/** Providers whose conversions carry a name and value (ad platforms and analytics). */
export const CONVERSION_PROVIDERS: ReadonlySet<AdProvider> = new Set(['ga4', 'googleads', 'microsoftads', 'metaads']);

/** What the conversion "name" is for each provider. */
export const CONVERSION_NAME_HELP: Partial<Record<AdProvider, string>> = {
  googleads: 'The Google Ads conversion action id (empty: the one chosen when connecting).',
  microsoftads: 'The offline conversion goal’s name.',
  metaads: 'The event name, e.g. Lead or Contact.',
  ga4: 'The event name, e.g. generate_lead.',
};

/**
 * A choice of the connect flow, read from a provider lookup: the config key it sets, the lookup, and the lookup's
 * parameters from earlier choices (null: an earlier choice is still missing).
 */
export interface LookupStep {
  key: string;
  lookup: string;
  label: string;
  description?: string;
  params: (config: Record<string, string>) => Record<string, string> | null;
}

/** The connect flow's choices per OAuth provider (docs/integrations.md "Routes": the lookups). */
export const LOOKUP_STEPS: Record<OAuthProvider, LookupStep[]> = {
  googleads: [
    {
      key: 'loginCustomerId',
      lookup: 'accessible-customers',
      label: 'Google Ads account you sign in with',
      description: 'A manager account or the advertiser account itself.',
      params: () => ({}),
    },
    {
      key: 'customerId',
      lookup: 'hierarchy',
      label: 'Advertiser account',
      description: 'The account whose campaigns the calls come from.',
      params: (c) => (c.loginCustomerId ? { customerId: c.loginCustomerId } : null),
    },
    {
      key: 'conversionActionId',
      lookup: 'conversion-actions',
      label: 'Conversion action',
      params: (c) => (c.customerId ? { customerId: c.customerId, ...(c.loginCustomerId ? { loginCustomerId: c.loginCustomerId } : {}) } : null),
    },
  ],
  metaads: [
    { key: 'businessId', lookup: 'business-managers', label: 'Business portfolio', params: () => ({}) },
    { key: 'adAccountId', lookup: 'ad-accounts', label: 'Ad account', params: (c) => (c.businessId ? { businessId: c.businessId } : null) },
    { key: 'pixelId', lookup: 'pixels', label: 'Pixel (dataset)', params: (c) => (c.adAccountId ? { adAccountId: c.adAccountId } : null) },
  ],
  microsoftads: [
    { key: 'customerId', lookup: 'managers', label: 'Customer (manager account)', params: () => ({}) },
    { key: 'accountId', lookup: 'accounts', label: 'Ad account', params: (c) => (c.customerId ? { customerId: c.customerId } : null) },
  ],
  slackbot: [{ key: 'channelId', lookup: 'channels', label: 'Channel', description: 'Where the messages are posted.', params: () => ({}) }],
  gohighlevel: [{ key: 'locationId', lookup: 'locations', label: 'Location (sub-account)', params: () => ({}) }],
  salesforce: [],
  hubspot: [],
};
