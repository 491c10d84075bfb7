/**
 * zod schemas for every HTTP payload, live event and job payload; both apps infer their
 * types from here. One file per area; add a line per file.
 */
export * from './common.js';
export * from './auth.js';
// [auth contracts]
export * from './companies.js';
export * from './telephony.js';
// [telephony contracts]
export * from './custom-field-values.js';
export * from './in-app-calling.js';
export * from './calls.js';
export * from './numbers-admin.js';
// [messaging contracts]
export * from './campaigns.js';
export * from './contacts.js';
export * from './messaging.js';
export * from './tracking.js';
export * from './analytics.js';
export * from './alerts.js';
export * from './report-preferences.js';
export * from './accounts.js';
export * from './integrations.js';
export * from './workspace.js';
export * from './billing.js';
export * from './outbound-calls.js';
export * from './transcription.js';
export * from './call-intelligence.js';
export * from './caller-id.js';
export * from './fax.js';
export * from './sms-verification.js';
export * from './marketplace.js';
export * from './ad-integrations.js';
export * from './caddy.js';
export * from './caddy-stores.js';
export * from './push.js';
export * from './ops.js';
export * from './live-events.js';
export * from './infer.js';
