/** Client configuration that is not a business rule (those live in @switchboard/domain). */

/** Address quoted in the unknown-error toast (foundation §8 "{email}"). */
export const SUPPORT_EMAIL = 'support@switchboard.local';

/** How often the Phone simulator re-reads the outside handset's messages, in ms (design decision). */
export const HANDSET_POLL_MS = 1500;
