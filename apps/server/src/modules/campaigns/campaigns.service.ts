/**
 * SMS/MMS campaigns (spec 001 §3 Campaign, §4 states, §5 validation, §7 "Campaigns" calls, §9
 * limits): the module's public surface. The work lives in files named for what they do:
 * - `campaigns.views.ts`: presenters, reads (list, one, recipient events), the live event;
 * - `campaigns.editing.ts`: create, edit, delete, pause ⇄ resume, the company's rate, media;
 * - `campaigns.dispatch.ts`: the send engine and its jobs (`campaigns.start`, `campaigns.dispatch`):
 *   claims, exactly-once sending, pause, rate and quiet hours;
 * - `campaigns.counters.ts`: delivery updates, replies, the counters and their throttled refresh;
 * - `campaigns.runtime.ts`: job names, tunables and the injectable clock.
 * Other modules never import campaigns (it sits above messaging and the inbox); replies reach it
 * through messaging's inbound-reply hook, registered in `campaigns.module.ts`.
 */
export { CAMPAIGNS_UPDATED, CAMPAIGN_DISPATCH_JOB, CAMPAIGN_START_JOB, campaignRuntime } from './campaigns.runtime.js';
export { getCampaign, listCampaignEvents, listCampaigns } from './campaigns.views.js';
export { createCampaign, deleteCampaign, setCompanyCampaignRate, togglePause, updateCampaign } from './campaigns.editing.js';
export { dispatchChunk, enqueueDispatch, kickCampaign, startCampaign } from './campaigns.dispatch.js';
export { applyCampaignStatus, refreshCampaignCounters } from './campaigns.counters.js';
