/**
 * Google Play's side of the store port (docs/consumer-area.md "Store subscriptions"): the Pub/Sub push's OIDC token
 * is verified with `google-auth-library` (signature against Google's published keys, issuer, audience, then the push
 * subscription's service account), and the subscription is read back from the Play Developer API with the official
 * `@googleapis/androidpublisher` client (`purchases.subscriptionsv2.get`), as Google requires after every
 * notification (the notification says only that something changed). The only file importing either package for the
 * live store; the sandbox (sandbox/sandbox-store.ts) checks its own push tokens through {@link verifyPushToken}.
 */
import { androidpublisher, type androidpublisher_v3 } from '@googleapis/androidpublisher';
import { GoogleAuth, OAuth2Client, type TokenPayload } from 'google-auth-library';
import { StoreSignatureError, type GooglePlayClient, type SubscriptionPurchaseV2 } from './store.port.js';

/** Issuers of Google-signed OIDC tokens (Pub/Sub push authentication). */
export const GOOGLE_ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];
const SCOPE = 'https://www.googleapis.com/auth/androidpublisher';

/** The bearer token of an `Authorization` header. @throws StoreSignatureError when there is none. */
export function bearerOf(authorization: string | undefined): string {
  const token = authorization?.startsWith('Bearer ') ? authorization.slice(7).trim() : '';
  if (!token || token.length > 8192) throw new StoreSignatureError('The push carries no bearer token.');
  return token;
}

/** Checks the claims Google's push authentication documents: the push subscription's service account, verified. */
function checkPushClaims(payload: TokenPayload | undefined, serviceAccount: string): void {
  if (!payload?.email || payload.email !== serviceAccount || payload.email_verified !== true) {
    throw new StoreSignatureError('The push was not signed for the configured service account.');
  }
}

/**
 * Verifies a push OIDC token with `google-auth-library`: against Google's keys (`certs` null: fetched and cached by
 * the library) or the given keys (the sandbox's), for `audience`, then the service account.
 * @throws StoreSignatureError for a bad token; Error when Google's keys cannot be fetched (a 5xx: Pub/Sub retries).
 */
export async function verifyPushToken(
  client: OAuth2Client,
  token: string,
  audience: string,
  serviceAccount: string,
  certs: Record<string, string> | null,
): Promise<void> {
  let payload: TokenPayload | undefined;
  try {
    payload = certs
      ? (await client.verifySignedJwtWithCertsAsync(token, certs, audience, GOOGLE_ISSUERS)).getPayload()
      : (await client.verifyIdToken({ idToken: token, audience })).getPayload();
  } catch (error) {
    if (error instanceof Error && /Failed to retrieve verification certificates/.test(error.message)) throw error;
    throw new StoreSignatureError('The push token does not verify.');
  }
  checkPushClaims(payload, serviceAccount);
}

/** The live Google Play client. */
export class GooglePlayApi implements GooglePlayClient {
  private readonly oidc = new OAuth2Client();
  private readonly api: androidpublisher_v3.Androidpublisher;

  /**
   * @param opts.audience the push subscription's audience; `serviceAccount` its service account; `keyFile` the Play
   *   Developer API's service-account key ('' = Application Default Credentials); `apiUrl` a root URL override.
   */
  constructor(private readonly opts: { audience: string; serviceAccount: string; keyFile: string; apiUrl: string }) {
    const auth = new GoogleAuth({ scopes: [SCOPE], ...(opts.keyFile ? { keyFile: opts.keyFile } : {}) });
    this.api = androidpublisher({ version: 'v3', auth, ...(opts.apiUrl ? { rootUrl: `${opts.apiUrl}/` } : {}) });
  }

  /** See {@link GooglePlayClient.verifyPush}. */
  async verifyPush(authorization: string | undefined): Promise<void> {
    await verifyPushToken(this.oidc, bearerOf(authorization), this.opts.audience, this.opts.serviceAccount, null);
  }

  /** See {@link GooglePlayClient.getSubscription}. */
  async getSubscription(packageName: string, purchaseToken: string): Promise<SubscriptionPurchaseV2> {
    const res = await this.api.purchases.subscriptionsv2.get({ packageName, token: purchaseToken }, { timeout: 15_000 });
    return res.data;
  }
}
