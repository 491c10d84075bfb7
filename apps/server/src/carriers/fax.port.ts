/**
 * What the product needs from a fax provider (docs/fax.md "The fax port"). Adapters: `telnyx/`
 * (Telnyx Programmable Fax through its documented REST API v2, the official `telnyx` SDK) and
 * `sandbox/sandbox.fax.ts` (default, offline: simulates sending and receiving and calls our fax
 * webhook exactly as Telnyx does, signed with Ed25519). The fax module talks only to this port:
 * adding a provider touches only `carriers/`.
 *
 * Webhooks are JSON bodies signed by the provider; the adapter verifies the signature over the raw
 * body (`verifyWebhook`) and turns the body into a provider-neutral `FaxWebhookEvent`
 * (`parseWebhook`), so the module never reads a provider's field names.
 */
import { z } from 'zod';

/** Fax statuses of the product (docs/fax.md "Statuses"); outbound move queued → sending → delivered | failed, inbound receiving → received | failed. */
export const FAX_STATUSES = ['queued', 'sending', 'delivered', 'receiving', 'received', 'failed'] as const;
export type FaxStatus = (typeof FAX_STATUSES)[number];

/** A fax to send: from one of our fax numbers to an E.164 number; the provider fetches the PDF at `mediaUrl` (a short-lived signed URL). */
export type OutboundFax = {
  from: string;
  to: string;
  /** Signed URL of the PDF (blob store, CARRIER_URL_TTL_MS). */
  mediaUrl: string;
  /** Absolute URL of our fax webhook (status events of this fax). */
  webhookUrl: string;
};

/** A provider's webhook made neutral: an outbound fax's progress, or a fax received on one of our numbers. */
export const FaxWebhookEvent = z.object({
  /** The provider's event id (exactly-once handling of repeated deliveries). */
  eventId: z.string().min(1),
  /** The provider's fax id. */
  faxId: z.string().min(1),
  direction: z.enum(['inbound', 'outbound']),
  status: z.enum(FAX_STATUSES),
  from: z.string(),
  to: z.string(),
  /** Pages transmitted or received, when the provider says. */
  pages: z.number().int().nonnegative().nullable(),
  /** Inbound `received`: where the PDF is fetched from (`downloadMedia`). */
  mediaUrl: z.string().nullable(),
  /** `failed`: the provider's reason (e.g. `user_busy`). */
  error: z.string().nullable(),
});
export type FaxWebhookEvent = z.infer<typeof FaxWebhookEvent>;

/** Headers of a webhook request, lower-cased names. */
export type WebhookHeaders = Record<string, string | string[] | undefined>;

export interface FaxPort {
  /** Which adapter (logs, docs); modules never branch on it. */
  readonly name: 'sandbox' | 'telnyx';
  /** Path of our fax webhook for this provider (registered by the fax module), e.g. `/webhooks/telnyx/fax`. */
  readonly webhookPath: string;
  /**
   * Hands a fax to the provider. @returns the provider's fax id and its first status.
   * @throws CarrierError when the provider refuses the fax (the fax is marked failed); other errors are transient (the job retries).
   */
  sendFax(fax: OutboundFax): Promise<{ providerId: string; status: FaxStatus }>;
  /** Whether the webhook's signature over the raw body is valid and recent (Ed25519, 5 minutes' tolerance). */
  verifyWebhook(rawBody: string, headers: WebhookHeaders): boolean;
  /** The neutral event of a verified webhook body, or null for an event type the product does not use. */
  parseWebhook(body: unknown): FaxWebhookEvent | null;
  /** Downloads a received fax's PDF from the provider's URL. @throws Error on an HTTP failure (the job retries). */
  downloadMedia(url: string): Promise<Buffer>;
  /**
   * Simulated providers only (the Phone simulator): an outside fax machine sends `pdf` from `from`
   * to our number `to`; the provider calls our webhook as for a real fax.
   * @returns the provider's fax id and the HTTP status our webhook answered.
   */
  simulateInbound?(fax: { from: string; to: string; pdf: Buffer }): Promise<{ faxId: string; webhookStatus: number }>;
}
