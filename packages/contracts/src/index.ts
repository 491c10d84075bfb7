/**
 * zod schemas for every HTTP payload, live event and job payload; both apps infer their
 * types from here. One file per area; add a line per file.
 */
export * from './common.js';
export * from './auth.js';
// [auth contracts]
export * from './telephony.js';
// [telephony contracts]
// [messaging contracts]
export * from './messaging.js';
