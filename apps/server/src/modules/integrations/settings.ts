/**
 * Settings per integration (docs/integrations.md "Settings"): which events are sent, the conversion name and value per
 * kind or outcome, and which numbers, pools or sources. Stored in `ad_integrations.settings`; what is missing takes the
 * provider's defaults below. Changes go through the routes (validated with contracts' `AdIntegrationSettings`) and are
 * recorded by the audit hook.
 */
import type { AdIntegrationSettings } from '@switchboard/contracts';
import type { IntegrationRow } from './integrations.repository.js';
import type { IntegrationSettings, ProviderId } from './providers/provider.js';

const NONE: IntegrationSettings['events'] = {
  anyCall: false,
  firstCall: false,
  qualifiedCall: false,
  minDurationS: null,
  outcomes: [],
  lead: false,
  missedCall: false,
  voicemail: false,
  text: false,
};
const CONVERTING: IntegrationSettings['events']['outcomes'] = ['appt_booked', 'vehicle_ordered', 'parts_ordered', 'opportunity'];

/** The defaults of a provider: chat tools get the people-facing events, ad platforms and CRMs the conversions. */
export function defaultSettings(provider: ProviderId): IntegrationSettings {
  const base = { conversions: {}, filters: { numberIds: [], poolIds: [], sources: [] }, provider: {} };
  switch (provider) {
    case 'slackbot':
      return { ...base, events: { ...NONE, missedCall: true, voicemail: true, lead: true, text: true } };
    case 'ga4':
      return { ...base, events: { ...NONE, anyCall: true, outcomes: [...CONVERTING, 'not_opportunity'] } };
    case 'adf':
      return { ...base, events: { ...NONE, lead: true, text: true, qualifiedCall: true } };
    case 'hubspot':
    case 'salesforce':
    case 'gohighlevel':
      return { ...base, events: { ...NONE, anyCall: true, text: true, outcomes: [...CONVERTING, 'not_opportunity', 'get_back_commitment'] } };
    default:
      return { ...base, events: { ...NONE, anyCall: true, minDurationS: 30, outcomes: CONVERTING } };
  }
}

/** The effective settings of an integration (stored values over the provider's defaults). */
export function settingsOf(row: Pick<IntegrationRow, 'provider' | 'settings'>): IntegrationSettings {
  const d = defaultSettings(row.provider as ProviderId);
  const s = (row.settings ?? {}) as Partial<AdIntegrationSettings>;
  return {
    events: { ...d.events, ...(s.events ?? {}) },
    conversions: { ...d.conversions, ...(s.conversions ?? {}) },
    filters: { ...d.filters, ...(s.filters ?? {}) },
    provider: { ...d.provider, ...(s.provider ?? {}) },
  };
}
