/**
 * The Telnyx Programmable Fax adapter of the fax port (docs/fax.md "Telnyx"): sends through
 * `POST /v2/faxes` with the official `telnyx` SDK (connection = the fax application
 * TELNYX_FAX_CONNECTION_ID, `media_url` = our short-lived signed PDF URL, `webhook_url` = our fax
 * webhook), verifies webhooks with the account's Ed25519 public key (TELNYX_PUBLIC_KEY) and
 * downloads received faxes from the `media_url` Telnyx posts. The only place the SDK is imported.
 */
import type crypto from 'node:crypto';
import Telnyx from 'telnyx';
import type { Config } from '../../platform/config.js';
import { CarrierError } from '../../platform/http/errors.js';
import type { FaxPort, FaxStatus, FaxWebhookEvent, OutboundFax, WebhookHeaders } from '../fax.port.js';
import { parseTelnyxFaxEvent, telnyxPublicKey, verifyTelnyxWebhook } from './telnyx.fax-dialect.js';

/** Our webhook path for Telnyx fax events. */
export const TELNYX_FAX_WEBHOOK_PATH = '/webhooks/telnyx/fax';

/** Telnyx's statuses of a fax resource, in ours. */
function statusOf(word: string | undefined): FaxStatus {
  if (word === 'sending' || word === 'originated' || word === 'initiated') return 'sending';
  if (word === 'delivered') return 'delivered';
  if (word === 'failed') return 'failed';
  return 'queued';
}

export class TelnyxFax implements FaxPort {
  readonly name = 'telnyx' as const;
  readonly webhookPath = TELNYX_FAX_WEBHOOK_PATH;
  private readonly client: Telnyx;
  private readonly publicKey: crypto.KeyObject;

  /** @throws Error when TELNYX_API_KEY, TELNYX_FAX_CONNECTION_ID or TELNYX_PUBLIC_KEY is missing or the key is no Ed25519 key. */
  constructor(private readonly config: Config) {
    if (!config.telnyxApiKey || !config.telnyxFaxConnectionId || !config.telnyxPublicKey) {
      throw new Error('FAX_PROVIDER=telnyx needs TELNYX_API_KEY, TELNYX_FAX_CONNECTION_ID and TELNYX_PUBLIC_KEY');
    }
    this.client = new Telnyx({ apiKey: config.telnyxApiKey, baseURL: config.telnyxApiUrl, maxRetries: 0, timeout: 15_000 });
    this.publicKey = telnyxPublicKey(config.telnyxPublicKey);
  }

  async sendFax(fax: OutboundFax): Promise<{ providerId: string; status: FaxStatus }> {
    let created;
    try {
      created = await this.client.faxes.create({
        connection_id: this.config.telnyxFaxConnectionId,
        from: fax.from,
        to: fax.to,
        media_url: fax.mediaUrl,
        webhook_url: fax.webhookUrl,
      });
    } catch (error) {
      // A 4xx is Telnyx refusing this fax (bad number, not a fax-enabled from): final. 5xx, timeouts: transient.
      if (error instanceof Telnyx.APIError && typeof error.status === 'number' && error.status >= 400 && error.status < 500 && error.status !== 429) {
        throw new CarrierError(`Telnyx refused the fax: ${error.message}`, error.status);
      }
      throw error;
    }
    const id = created.data?.id;
    if (!id) throw new Error('Telnyx answered no fax id');
    return { providerId: id, status: statusOf(created.data?.status) };
  }

  verifyWebhook(rawBody: string, headers: WebhookHeaders): boolean {
    return verifyTelnyxWebhook(this.publicKey, rawBody, headers);
  }

  parseWebhook(body: unknown): FaxWebhookEvent | null {
    return parseTelnyxFaxEvent(body);
  }

  async downloadMedia(url: string): Promise<Buffer> {
    const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
    if (!res.ok) throw new Error(`fax media download failed: HTTP ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  }
}
