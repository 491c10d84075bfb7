/**
 * The sandbox carrier (ARCHITECTURE "The carrier port and the sandbox carrier"): a simulated
 * carrier with a generated inventory, numbers sold into `sandbox_numbers`, outbound messages
 * delivered to simulated handsets (`sandbox_messages`) with signed `MessageStatus` callbacks
 * (queued → sent → delivered, or undelivered with ErrorCode 30003 for recipients ending in 0000),
 * and TwiML rendering/signatures shared with the Twilio adapter.
 */
import { CarrierError } from '../../platform/http/errors.js';
import type { Config } from '../../platform/config.js';
import type { Db } from '../../platform/db/db.js';
import type { Queue } from '../../platform/queue.js';
import { createSandboxClientToken } from './sandbox.token.js';
import type {
  AvailableNumber,
  CallFlowStep,
  CarrierCapabilities,
  CarrierPort,
  ClientToken,
  NumberSearch,
  OutboundMessage,
  PurchasedNumber,
} from '../carrier.port.js';
import { addDigits, endLeg, setHold, transferLeg } from './sandbox.handset-calls.js';
import { TwilioDialect } from '../twilio/dialect.js';
import { newSid, postSigned } from './sandbox.http.js';
import { generateInventory } from './sandbox.inventory.js';
import { sandboxRepository } from './sandbox.repository.js';

/** Job that advances an outbound sandbox message and posts its status callback. */
export const MESSAGE_STATUS_JOB = 'sandbox.message-status';
/** Twilio's "Unreachable destination handset" error, used for recipients ending in 0000. */
export const UNREACHABLE_ERROR_CODE = 30003;

type StatusJob = { sid: string; status: 'sent' | 'delivered' | 'undelivered' };
/** Job that advances a batch of outbound sandbox messages (campaigns) and posts their callbacks. */
export const MESSAGE_STATUS_BATCH_JOB = 'sandbox.message-status-batch';
type BatchStatusJob = { sids: string[]; status: 'sent' | 'final' };

export class SandboxCarrier extends TwilioDialect implements CarrierPort {
  readonly name = 'sandbox' as const;
  readonly displayName = 'Sandbox';
  /** Softphone tokens for incoming and outgoing browser calls are always available; port requests advance on timers (ports module). */
  readonly capabilities: CarrierCapabilities = { voiceSdk: true, voiceSdkOutgoing: true, mms: true, fax: false, numberPorting: false, simulator: true };
  readonly sipDomain = 'sandbox.switchboard.local';
  /** The sandbox softphone talks to our own server only. */
  readonly browserOrigins = [] as const;

  constructor(
    config: Config,
    private readonly db: Db,
    private readonly queue: Queue,
  ) {
    super(config);
    queue.define<StatusJob>(MESSAGE_STATUS_JOB, (data) => this.advanceMessage(data));
    queue.define<BatchStatusJob>(MESSAGE_STATUS_BATCH_JOB, (data) => this.advanceBatch(data), 2);
  }

  async searchNumbers(query: NumberSearch): Promise<AvailableNumber[]> {
    return generateInventory(query, await sandboxRepository.activeNumbers(this.db));
  }

  async buyNumber(number: string, urls: { voiceUrl: string; smsUrl: string }): Promise<PurchasedNumber> {
    const sid = newSid('PN');
    const ok = await sandboxRepository.insertNumber(this.db, { sid, number, voice_url: urls.voiceUrl, sms_url: urls.smsUrl });
    if (!ok) throw new CarrierError('The number is no longer available.', 21422);
    return { sid, number };
  }

  async releaseNumber(sid: string): Promise<void> {
    await sandboxRepository.releaseNumber(this.db, sid);
  }

  /** Stores the message in the recipient's handset (status queued) and schedules its callbacks. */
  async sendMessage(message: OutboundMessage): Promise<{ sid: string; status: string }> {
    const sid = newSid(message.mediaUrls.length ? 'MM' : 'SM');
    await sandboxRepository.insertMessage(this.db, {
      sid,
      direction: 'outbound',
      from_number: message.from,
      to_number: message.to,
      body: message.body,
      media: message.mediaUrls,
      status: 'queued',
      status_callback: message.statusCallback,
    });
    await this.queue.enqueue<StatusJob>(MESSAGE_STATUS_JOB, { sid, status: 'sent' }, { startAfter: new Date(Date.now() + 200) });
    return { sid, status: 'queued' };
  }

  /**
   * Batch send (campaigns): one INSERT for all messages and one status job per batch, so a large
   * campaign costs the sandbox a few statements per hundreds of messages.
   */
  async sendMessages(messages: OutboundMessage[]): Promise<Array<{ sid: string; status: string }>> {
    if (messages.length === 0) return [];
    const rows = messages.map((m) => ({
      sid: newSid(m.mediaUrls.length ? 'MM' : 'SM'),
      direction: 'outbound',
      from_number: m.from,
      to_number: m.to,
      body: m.body,
      media: m.mediaUrls,
      status: 'queued',
      status_callback: m.statusCallback,
    }));
    await sandboxRepository.insertMessages(this.db, rows);
    await this.queue.enqueue<BatchStatusJob>(
      MESSAGE_STATUS_BATCH_JOB,
      { sids: rows.map((r) => r.sid), status: 'sent' },
      { startAfter: new Date(Date.now() + 200) },
    );
    return rows.map((r) => ({ sid: r.sid, status: 'queued' }));
  }

  /** The outbound message stored with this status callback URL (reconciliation after a crash). */
  async findMessageByStatusCallback(statusCallback: string): Promise<{ sid: string; status: string } | null> {
    const m = await sandboxRepository.findMessageByStatusCallback(this.db, statusCallback);
    return m ? { sid: m.sid, status: m.status } : null;
  }

  /** Batch form of `advanceMessage`: 'sent' for all, then the final status (delivered/undelivered). */
  private async advanceBatch(job: BatchStatusJob): Promise<void> {
    const messages = await sandboxRepository.findMessages(this.db, job.sids);
    const status = (m: { to_number: string }) => (job.status === 'sent' ? 'sent' : m.to_number.endsWith('0000') ? 'undelivered' : 'delivered');
    await sandboxRepository.setMessagesStatus(
      this.db,
      messages.filter((m) => status(m) === 'delivered' || status(m) === 'sent').map((m) => m.sid),
      job.status === 'sent' ? 'sent' : 'delivered',
      null,
    );
    if (job.status !== 'sent')
      await sandboxRepository.setMessagesStatus(
        this.db,
        messages.filter((m) => status(m) === 'undelivered').map((m) => m.sid),
        'undelivered',
        UNREACHABLE_ERROR_CODE,
      );
    let next = 0;
    let failures = 0;
    let firstFailure: unknown;
    const worker = async () => {
      while (next < messages.length) {
        const m = messages[next++]!;
        if (!m.status_callback) continue;
        const s = status(m);
        const params: Record<string, string> = {
          MessageSid: m.sid,
          SmsSid: m.sid,
          AccountSid: this.config.twilioAccountSid,
          From: m.from_number,
          To: m.to_number,
          MessageStatus: s,
          SmsStatus: s,
          ApiVersion: '2010-04-01',
        };
        if (s === 'undelivered') params.ErrorCode = String(UNREACHABLE_ERROR_CODE);
        try {
          const res = await postSigned(this.config, m.status_callback, params);
          if (res.status >= 500) failures++;
        } catch (e) {
          // The product could not be reached (refused, timed out): counted, and the batch job fails
          // with the first cause so the queue retries it; the other callbacks are still posted.
          failures++;
          firstFailure ??= e;
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    if (failures > 0) throw new Error(`${failures} status callbacks failed`, { cause: firstFailure });
    if (job.status === 'sent')
      await this.queue.enqueue<BatchStatusJob>(MESSAGE_STATUS_BATCH_JOB, { sids: job.sids, status: 'final' }, { startAfter: new Date(Date.now() + 200) });
  }

  /** Idempotent: re-running a step re-posts the same callback (the product dedupes by MessageSid + status). */
  private async advanceMessage(job: StatusJob): Promise<void> {
    const m = await sandboxRepository.findMessage(this.db, job.sid);
    if (!m) return;
    const errorCode = job.status === 'undelivered' ? UNREACHABLE_ERROR_CODE : null;
    await sandboxRepository.setMessageStatus(this.db, m.sid, job.status, errorCode);
    if (m.status_callback) {
      const params: Record<string, string> = {
        MessageSid: m.sid,
        SmsSid: m.sid,
        AccountSid: this.config.twilioAccountSid,
        From: m.from_number,
        To: m.to_number,
        MessageStatus: job.status,
        SmsStatus: job.status,
        ApiVersion: '2010-04-01',
      };
      if (errorCode) params.ErrorCode = String(errorCode);
      const res = await postSigned(this.config, m.status_callback, params);
      if (res.status >= 500) throw new Error(`status callback answered ${res.status}`);
    }
    if (job.status === 'sent') {
      const final = m.to_number.endsWith('0000') ? 'undelivered' : 'delivered';
      await this.queue.enqueue<StatusJob>(
        MESSAGE_STATUS_JOB,
        { sid: m.sid, status: final },
        { startAfter: new Date(Date.now() + 200), singletonKey: `${m.sid}:${final}` },
      );
    }
  }

  /** Simulated handsets' media are public URLs: no credentials. */
  mediaRequestHeaders(): Record<string, string> {
    return {};
  }

  /** A signed sandbox softphone token (see sandbox.token.ts). */
  createClientToken(identity: string, options?: { outgoing?: boolean; ttlS?: number; params?: Record<string, string> }): ClientToken {
    return createSandboxClientToken(this.config, identity, options);
  }

  /** Ends the simulated handset leg of browser call `callSid` (sandbox.handset-calls.ts). */
  async hangupCall(callSid: string): Promise<void> {
    await endLeg(this.db, callSid);
  }

  /**
   * The simulated handset shows "On hold" until resumed, hearing `musicUrl` (the number's on-hold
   * greeting; the Phone simulator plays it) or the sandbox's default music (null).
   */
  async holdCall(callSid: string, hold: boolean, musicUrl: string | null): Promise<boolean> {
    return setHold(this.db, callSid, hold, musicUrl);
  }

  /** The simulated handset records the tones it heard (shown in the Phone simulator). */
  async sendDigits(callSid: string, digits: string): Promise<boolean> {
    return addDigits(this.db, callSid, digits);
  }

  /** The simulated handset follows the rendered `<Dial>` (a number talks on; a client rings in the browser). */
  async transferCall(callSid: string, steps: CallFlowStep[]): Promise<boolean> {
    return transferLeg(this.db, callSid, this.renderVoice(steps).body);
  }

  /** The simulator's call engine, waiting while the caller talks to the browser, follows the rendered steps (sandbox.simulator.ts). */
  async redirectCall(callSid: string, steps: CallFlowStep[]): Promise<boolean> {
    await sandboxRepository.setRedirect(this.db, callSid, this.renderVoice(steps).body);
    return true;
  }

  /**
   * Reads a recording the simulator stored (a signed URL of our own `/files/`); any other URL is
   * refused, so a forged RecordingUrl cannot make the server fetch elsewhere.
   * @throws CarrierError
   */
  async fetchRecording(url: string): Promise<{ data: Buffer; contentType: string }> {
    if (!url.startsWith(`${this.config.publicUrl}/files/`)) throw new CarrierError('Recording download refused: not a sandbox recording URL.');
    const res = await fetch(url, { signal: AbortSignal.timeout(15_000) });
    if (!res.ok) throw new CarrierError(`Recording download failed (${res.status}).`);
    return { data: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type') ?? 'audio/wav' };
  }
}
