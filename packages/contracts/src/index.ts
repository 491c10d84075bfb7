/**
 * zod schemas for every HTTP payload, live event and job payload; both apps infer their
 * types from here. One file per area; add a line per file.
 */
export * from './common.js';
// [auth contracts]
// [telephony contracts]
// [messaging contracts]
