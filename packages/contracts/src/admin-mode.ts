/**
 * Admin mode's header and message (spec 000 §7; docs/auth.md "Admin mode"), in a module without zod so the web's
 * sign-in page (whose HTTP client sends the header) does not bundle zod with the auth schemas
 * (apps/web/README.md "First page"). Re-exported by auth.ts.
 */

/**
 * The request header the web adds in admin mode (spec 000 §7 "an admin header is added in admin mode"), value `1`.
 * The server holds state-changing requests to it (docs/auth.md "Admin mode"): the header must be present exactly
 * when the session is an admin session, else 409 with ADMIN_MODE_MISMATCH.
 */
export const ADMIN_MODE_HEADER = 'x-admin-mode';
/** 409 message when the admin header and the session disagree (the page is out of date: reload it). */
export const ADMIN_MODE_MISMATCH = 'Admin mode changed in another tab or window. Reload the page to continue.';
