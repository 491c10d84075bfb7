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
export * from './live-events.js';
export * from './infer.js';
