/**
 * The sandbox fax provider (docs/fax.md "Sandbox"): an offline stand-in for Telnyx Programmable
 * Fax that calls our fax webhook exactly as Telnyx does (JSON events signed with Ed25519, the
 * dialect of `telnyx/telnyx.fax-dialect.ts`; the key pair is derived from TWILIO_AUTH_TOKEN so every
 * node of a deployment signs and verifies alike).
 *
 * Sending: `fax.sending.started` after ~200 ms, then the provider fetches the PDF through the
 * signed URL it was given (an expired or refused URL fails the fax with `media_unavailable`),
 * counts its pages and posts `fax.delivered` with `page_count`, or `fax.failed` with
 * `failure_reason: receiver_no_answer` for a recipient ending in 0000 (the documented test
 * number, docs/fax.md). Receiving: the Phone simulator hands a PDF to `simulateInbound`, which keeps
 * it under a key of no company (served only through a signed URL) and posts `fax.received`.
 */
import crypto from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import type { BlobStore } from '../../platform/blob.js';
import { CARRIER_URL_TTL_MS } from '../../platform/blob/access.js';
import type { Config } from '../../platform/config.js';
import type { Queue } from '../../platform/queue.js';
import type { FaxPort, FaxStatus, FaxWebhookEvent, OutboundFax, WebhookHeaders } from '../fax.port.js';
import { parseTelnyxFaxEvent, signTelnyxWebhook, telnyxFaxEventBody, verifyTelnyxWebhook } from '../telnyx/telnyx.fax-dialect.js';
import { rebase } from './sandbox.http.js';

/** Job that advances an outbound sandbox fax and posts its webhook. */
export const SANDBOX_FAX_JOB = 'sandbox.fax-progress';
/** Our webhook path for the sandbox's fax events. */
export const SANDBOX_FAX_WEBHOOK_PATH = '/webhooks/sandbox/fax';
/** Recipients ending in this fail (`receiver_no_answer`): the documented test number. */
export const SANDBOX_FAX_FAIL_SUFFIX = '0000';

type ProgressJob = { faxId: string; from: string; to: string; mediaUrl: string; webhookUrl: string; step: 'sending' | 'final' };

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The sandbox's Ed25519 signing key, derived from `secret` (same on every node). */
export function sandboxFaxKey(secret: string): crypto.KeyObject {
  const seed = crypto.createHash('sha256').update(`switchboard/sandbox-fax\n${secret}`).digest();
  return crypto.createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

/** Pages of a PDF (pdf-lib), or null when the bytes are no readable PDF. */
async function pageCount(data: Uint8Array): Promise<number | null> {
  try {
    return (await PDFDocument.load(data, { ignoreEncryption: true })).getPageCount();
  } catch (error) {
    if (error instanceof Error) return null; // not a PDF: the simulated machine cannot print it
    throw error;
  }
}

export class SandboxFax implements FaxPort {
  readonly name = 'sandbox' as const;
  readonly webhookPath = SANDBOX_FAX_WEBHOOK_PATH;
  private readonly privateKey: crypto.KeyObject;
  private readonly publicKey: crypto.KeyObject;

  constructor(
    private readonly config: Config,
    private readonly queue: Queue,
    private readonly blobs: BlobStore,
  ) {
    this.privateKey = sandboxFaxKey(config.twilioAuthToken);
    this.publicKey = crypto.createPublicKey(this.privateKey);
    queue.define<ProgressJob>(SANDBOX_FAX_JOB, (data) => this.advance(data));
  }

  async sendFax(fax: OutboundFax): Promise<{ providerId: string; status: FaxStatus }> {
    const faxId = crypto.randomUUID();
    await this.queue.enqueue<ProgressJob>(
      SANDBOX_FAX_JOB,
      { faxId, ...fax, step: 'sending' },
      { startAfter: new Date(Date.now() + 200), singletonKey: `${faxId}-sending` },
    );
    return { providerId: faxId, status: 'queued' };
  }

  verifyWebhook(rawBody: string, headers: WebhookHeaders): boolean {
    return verifyTelnyxWebhook(this.publicKey, rawBody, headers);
  }

  parseWebhook(body: unknown): FaxWebhookEvent | null {
    return parseTelnyxFaxEvent(body);
  }

  async downloadMedia(url: string): Promise<Buffer> {
    const res = await fetch(rebase(this.config, url), { signal: AbortSignal.timeout(15_000) });
    if (!res.ok) throw new Error(`fax media download failed: HTTP ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  }

  /**
   * The Phone simulator's fax machine sends `pdf` from `from` to our number `to`: the PDF is kept
   * under `sandbox/fax/…` (signed URLs only) and `fax.received` is posted to our webhook.
   * @returns the provider's fax id and the HTTP status our webhook answered.
   */
  async simulateInbound(fax: { from: string; to: string; pdf: Buffer }): Promise<{ faxId: string; webhookStatus: number }> {
    const faxId = crypto.randomUUID();
    const key = `sandbox/fax/${faxId}.pdf`;
    await this.blobs.put(key, fax.pdf);
    const body = telnyxFaxEventBody('fax.received', {
      fax_id: faxId,
      direction: 'inbound',
      from: fax.from,
      to: fax.to,
      status: 'received',
      page_count: await pageCount(fax.pdf),
      media_url: this.blobs.signedUrl(key, CARRIER_URL_TTL_MS),
    });
    return { faxId, webhookStatus: await this.post(this.config.publicUrl + this.webhookPath, body) };
  }

  /** Posts a signed event to our webhook; returns the HTTP status. */
  private async post(url: string, body: string): Promise<number> {
    const res = await fetch(rebase(this.config, url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signTelnyxWebhook(this.privateKey, body) },
      body,
      signal: AbortSignal.timeout(15_000),
    });
    await res.arrayBuffer();
    return res.status;
  }

  /** One step of an outbound fax; a webhook answered other than 2xx throws, so the job retries. */
  private async advance(job: ProgressJob): Promise<void> {
    const base = { fax_id: job.faxId, direction: 'outbound' as const, from: job.from, to: job.to };
    let body: string;
    if (job.step === 'sending') {
      body = telnyxFaxEventBody('fax.sending.started', { ...base, status: 'sending' });
    } else {
      let pages: number | null = null;
      let mediaOk = false;
      const res = await fetch(job.mediaUrl.startsWith('/') ? this.config.publicUrl + job.mediaUrl : rebase(this.config, job.mediaUrl), {
        signal: AbortSignal.timeout(15_000),
      });
      if (res.ok) {
        pages = await pageCount(new Uint8Array(await res.arrayBuffer()));
        mediaOk = pages !== null;
      } else await res.arrayBuffer();
      if (!mediaOk) body = telnyxFaxEventBody('fax.failed', { ...base, status: 'failed', failure_reason: 'media_unavailable' });
      else if (job.to.endsWith(SANDBOX_FAX_FAIL_SUFFIX))
        body = telnyxFaxEventBody('fax.failed', { ...base, status: 'failed', failure_reason: 'receiver_no_answer' });
      else body = telnyxFaxEventBody('fax.delivered', { ...base, status: 'delivered', page_count: pages });
    }
    const status = await this.post(job.webhookUrl, body);
    if (status < 200 || status >= 300) throw new Error(`fax webhook answered HTTP ${status}`);
    if (job.step === 'sending') {
      await this.queue.enqueue<ProgressJob>(
        SANDBOX_FAX_JOB,
        { ...job, step: 'final' },
        { startAfter: new Date(Date.now() + 300), singletonKey: `${job.faxId}-final` },
      );
    }
  }
}
