/**
 * App Store Server Notifications V2 verification (docs/consumer-area.md "Store subscriptions"): the official
 * `@apple/app-store-server-library` `SignedDataVerifier` (the only file importing it). It checks the JWS's `x5c`
 * chain (three certificates, Apple's marker extensions on the leaf and intermediate) to a trusted root, the
 * signature, the dates, the bundle id and environment (and the app's Apple ID in Production), then the signed
 * transaction and renewal info inside, the same way. The live adapter trusts Apple's root certificates
 * (CADDY_APPLE_ROOT_CERTS, with online revocation checks by default); the sandbox trusts its own test root
 * (sandbox/test-chain.ts) in the `Sandbox` environment, so its notifications pass the very same checks.
 */
import fs from 'node:fs';
import { Environment, SignedDataVerifier, VerificationException, VerificationStatus } from '@apple/app-store-server-library';
import { StoreSignatureError, type AppleNotificationVerifier, type AppleVerified } from './store.port.js';

/** Longest `signedPayload` taken (characters): a notification with both signed infos is ~10 KB. */
export const MAX_SIGNED_PAYLOAD = 64 * 1024;

/** Reads root certificates (DER or PEM files) as DER buffers. @throws Error naming an unreadable file. */
export function readRootCertificates(files: string[]): Buffer[] {
  return files.map((file) => {
    const raw = fs.readFileSync(file);
    const text = raw.toString('latin1');
    if (!text.includes('-----BEGIN CERTIFICATE-----')) return raw;
    const b64 = text
      .replace(/-----(BEGIN|END) CERTIFICATE-----/g, '')
      .replace(/\s+/g, '')
      .trim();
    return Buffer.from(b64, 'base64');
  });
}

/** The App Store's notification verifier over `SignedDataVerifier` (live and sandbox alike). */
export class AppleVerifier implements AppleNotificationVerifier {
  private readonly verifier: SignedDataVerifier;

  /**
   * @param roots trusted root certificates (DER).
   * @param environment `Production` or `Sandbox` (the notifications' `data.environment` must match).
   * @param bundleId the app's bundle id.
   * @param appAppleId the app's Apple ID (required for Production).
   * @param onlineChecks OCSP revocation checks and "now" as the validity date (else the notification's signed date).
   */
  constructor(roots: Buffer[], environment: 'Production' | 'Sandbox', bundleId: string, appAppleId: number | undefined, onlineChecks: boolean) {
    const env = environment === 'Production' ? Environment.PRODUCTION : Environment.SANDBOX;
    this.verifier = new SignedDataVerifier(roots, onlineChecks, env, bundleId, appAppleId);
  }

  /** See {@link AppleNotificationVerifier.verify}. @throws StoreSignatureError with the library's verification status. */
  async verify(signedPayload: string): Promise<AppleVerified> {
    try {
      const payload = await this.verifier.verifyAndDecodeNotification(signedPayload);
      const data = payload.data;
      const tx = data?.signedTransactionInfo ? await this.verifier.verifyAndDecodeTransaction(data.signedTransactionInfo) : null;
      const renewal = data?.signedRenewalInfo ? await this.verifier.verifyAndDecodeRenewalInfo(data.signedRenewalInfo) : null;
      if (!payload.notificationType || !payload.notificationUUID || typeof payload.signedDate !== 'number') {
        throw new StoreSignatureError('The notification lacks its type, id or signed date.');
      }
      return {
        notificationType: String(payload.notificationType),
        subtype: payload.subtype ? String(payload.subtype) : null,
        notificationUUID: payload.notificationUUID,
        signedDate: payload.signedDate,
        status: typeof data?.status === 'number' ? data.status : null,
        transaction: tx
          ? {
              appAccountToken: tx.appAccountToken ?? null,
              productId: tx.productId ?? null,
              originalTransactionId: tx.originalTransactionId ?? null,
              expiresDate: tx.expiresDate ?? null,
            }
          : null,
        renewal: renewal
          ? {
              autoRenewStatus: typeof renewal.autoRenewStatus === 'number' ? renewal.autoRenewStatus : null,
              appAccountToken: renewal.appAccountToken ?? null,
              gracePeriodExpiresDate: renewal.gracePeriodExpiresDate ?? null,
            }
          : null,
      };
    } catch (error) {
      if (error instanceof StoreSignatureError) throw error;
      // A revocation check that could not reach Apple is not a bad signature: a 5xx, so the App Store retries.
      if (error instanceof VerificationException && error.status === VerificationStatus.RETRYABLE_VERIFICATION_FAILURE) throw error;
      if (error instanceof VerificationException) throw new StoreSignatureError(`The App Store signature does not verify (status ${error.status}).`);
      throw new StoreSignatureError('The App Store notification could not be decoded.');
    }
  }
}
