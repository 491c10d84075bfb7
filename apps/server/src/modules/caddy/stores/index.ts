/**
 * The configured app stores of the consumer area (CADDY_STORES; docs/consumer-area.md "Store subscriptions"), one set
 * per application context: the sandbox store (default, offline) or the live App Store and Google Play adapters, each
 * on when its keys are set.
 */
import type { AppContext } from '../../../context.js';
import { AppleVerifier, readRootCertificates } from './apple.js';
import { GooglePlayApi } from './google.js';
import { SandboxStore } from './sandbox/sandbox-store.js';
import type { CaddyStores } from './store.port.js';

export * from './store.port.js';
export { SandboxStore } from './sandbox/sandbox-store.js';

/** The path of the Google Play webhook (the default audience of its push tokens is PUBLIC_URL + this). */
export const GOOGLE_WEBHOOK_PATH = '/api/caddy/stores/google/notifications';
/** The path of the App Store webhook. */
export const APPLE_WEBHOOK_PATH = '/api/caddy/stores/apple/notifications';

/** The audience push tokens must carry: CADDY_GOOGLE_PUSH_AUDIENCE, else PUBLIC_URL + the webhook path. */
export function pushAudience(ctx: AppContext): string {
  return ctx.config.caddyStores.google.pushAudience || `${ctx.config.publicUrl}${GOOGLE_WEBHOOK_PATH}`;
}

/**
 * Makes the stores of `ctx` (the module's routes make them once and hold them). In 'live' mode the App Store is on with CADDY_APPLE_ROOT_CERTS and Google Play with
 * CADDY_GOOGLE_PUSH_SERVICE_ACCOUNT. @throws Error when a root certificate file cannot be read (at start).
 */
export function caddyStores(ctx: AppContext): CaddyStores & { sandbox: SandboxStore | null } {
  const c = ctx.config.caddyStores;
  let stores: CaddyStores & { sandbox: SandboxStore | null };
  if (c.mode === 'sandbox') {
    const sandbox = new SandboxStore(ctx.db, { bundleId: c.apple.bundleId, packageName: c.google.packageName, audience: () => pushAudience(ctx) });
    stores = { mode: 'sandbox', apple: sandbox.apple, google: sandbox.google, packageName: c.google.packageName, sandbox };
  } else {
    const apple = c.apple.rootCertFiles.length
      ? new AppleVerifier(readRootCertificates(c.apple.rootCertFiles), c.apple.environment, c.apple.bundleId, c.apple.appAppleId, c.apple.onlineChecks)
      : null;
    const google = c.google.pushServiceAccount
      ? new GooglePlayApi({
          audience: pushAudience(ctx),
          serviceAccount: c.google.pushServiceAccount,
          keyFile: c.google.serviceAccountKeyFile,
          apiUrl: c.google.apiUrl,
        })
      : null;
    stores = { mode: 'live', apple, google, packageName: c.google.packageName, sandbox: null };
  }
  return stores;
}
