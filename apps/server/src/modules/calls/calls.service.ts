/**
 * The calls module's published functions for other modules (spec 001 §7 "Calls"): what the
 * Activity feed reads. The module's own use cases live in files named for what they do:
 * - `call-flow.ts`: the voice webhooks' call flow (inbound calls, menus, dials, whisper/confirm,
 *   recordings, status);
 * - `call-batching.ts`: the hot path's group commit of new inbound calls;
 * - `browser-calls.ts`: calls placed and answered in the browser (in-app calling);
 * - `call-records.ts`: reading a call, the Activity feed's calls, tags and qualification;
 * - `voicemails.ts`: storing, fetching and the voicemail API;
 * - `call-changes.ts`: the after-commit announcements (`call updated`, `call.changed`).
 */
export { knownParties, listCallActivity, type CallActivity } from './call-records.js';
export { applyAiAttributes, callForUser, type AiAttributesRecalculator } from './call-records.js';
export { deleteCompanyRecordings } from './recordings.js';
export { placeOutboundCall, hangupOutboundCall } from './outbound-calls.js';
export {
  callActivityOf,
  callIdsPage,
  callIdWindow,
  callsForFacts,
  tagNamesOf,
  voicemailsPage,
  type CallActivityRow,
  type CallForFacts,
  type VoicemailForExport,
} from './calls.reporting.js';
