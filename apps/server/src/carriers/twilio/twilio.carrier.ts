/**
 * Production carrier adapter over Twilio's REST API (the official `twilio` package):
 * number search/purchase/release, outbound SMS/MMS, Voice SDK tokens, browser-call controls
 * (hang-up, hold through a queue, blind transfer), recording and media downloads with the account's
 * credentials; webhook parsing, TwiML and signatures come from `TwilioDialect`.
 */
import twilio from 'twilio';
import type { Config } from '../../platform/config.js';
import { CarrierError } from '../../platform/http/errors.js';
import { safeFetch } from '../../platform/http/safe-fetch.js';
import { createTwilioClientToken } from './client-token.js';
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
import { TwilioDialect } from './dialect.js';
import { renderDialQueueTwiml, renderEnqueueTwiml } from './twiml.js';

/** Provider ids (spec 002 provider labels): 1 the carrier for local numbers, 2 the toll-free registry. */
const LOCAL_PROVIDER = 1;
const TOLL_FREE_PROVIDER = 2;

/** How long resuming waits for the held party in its queue (s): it is there unless it just hung up. */
const RESUME_TIMEOUT_S = 5;

/** The queue the held party of browser call `callSid` waits in (`hold-CA…`, under Twilio's 64 characters). */
export function holdQueueName(callSid: string): string {
  return `hold-${callSid}`;
}

/** Twilio's answer for a call that has ended or is not in progress (404, or 21220 "not in-progress"). */
function notInProgress(e: unknown): boolean {
  const err = e as { status?: number; code?: number };
  return err.status === 404 || err.code === 21220;
}

function carrierError(e: unknown): CarrierError {
  const err = e as { message?: string; code?: number };
  return new CarrierError(err.message ?? 'The carrier refused the request.', typeof err.code === 'number' ? err.code : undefined);
}

export class TwilioCarrier extends TwilioDialect implements CarrierPort {
  readonly name = 'twilio' as const;
  readonly displayName = 'Twilio';
  readonly capabilities: CarrierCapabilities;
  /** Twilio's Voice SDK reaches its signalling and media endpoints under twilio.com. */
  readonly browserOrigins = ['https://*.twilio.com', 'wss://*.twilio.com'] as const;
  /** Hold moves the dialed party into a queue, which ends the browser's `<Dial>` (see `holdCall`). */
  readonly holdLeavesDial = true;
  private readonly client: twilio.Twilio;

  /** `options.httpClient` replaces the package's HTTP client (tests: a local stand-in for Twilio's REST API). */
  constructor(config: Config, options: { httpClient?: twilio.RequestClient } = {}) {
    super(config);
    this.client = twilio(config.twilioAccountSid, config.twilioAuthToken, options.httpClient ? { httpClient: options.httpClient } : {});
    this.capabilities = {
      // Voice SDK tokens need an API key; outgoing browser calls also a TwiML app (README "Configuration").
      voiceSdk: Boolean(config.twilioApiKey && config.twilioApiSecret),
      voiceSdkOutgoing: Boolean(config.twilioTwimlAppSid),
      mms: true,
      fax: false,
      numberPorting: false,
      simulator: false,
    };
  }

  /** Softphone SIP addresses live under our own public host name (read when used: PUBLIC_URL may be settled after start). */
  get sipDomain(): string {
    return new URL(this.config.publicUrl).hostname;
  }

  /** HTTP Basic auth with the account SID and auth token (Twilio's REST and media hosts). */
  private basicAuth(): string {
    return `Basic ${Buffer.from(`${this.config.twilioAccountSid}:${this.config.twilioAuthToken}`).toString('base64')}`;
  }

  /** Twilio serves MMS media from its own hosts (api.twilio.com, media.twiliocdn.com redirects) only to the account; others get no credentials. */
  mediaRequestHeaders(url: string): Record<string, string> {
    let host: string;
    try {
      host = new URL(url).hostname;
    } catch (e) {
      if (e instanceof TypeError) return {}; // not a URL (Invalid URL): the fetch guard refuses it
      throw e;
    }
    return /(^|\.)twilio\.com$/.test(host) ? { authorization: this.basicAuth() } : {};
  }

  /** Searches Twilio's US inventory; toll-free "8**" searches every toll-free prefix. */
  async searchNumbers(query: NumberSearch): Promise<AvailableNumber[]> {
    const limit = query.limit ?? 20;
    const digits = query.pattern ?? '';
    const mode = query.mode ?? 'contains';
    // Twilio's `contains` takes a pattern with `*` wildcards over the whole 10-digit number.
    const contains = !digits
      ? undefined
      : mode === 'starts_with'
        ? `${query.areaCode && query.kind === 'local' ? query.areaCode : '***'}${digits}*`
        : mode === 'ends_with'
          ? `*${digits}`
          : digits;
    try {
      if (query.kind === 'toll_free') {
        const prefix = query.areaCode && query.areaCode !== '8**' ? query.areaCode : undefined;
        const list = await this.client.availablePhoneNumbers('US').tollFree.list({
          limit,
          ...(contains ? { contains: prefix && mode === 'starts_with' ? `${prefix}${digits}*` : contains } : prefix ? { contains: `${prefix}*******` } : {}),
        });
        return list.map((n) => ({
          number: n.phoneNumber,
          kind: 'toll_free',
          region: n.region ?? null,
          locality: n.locality ?? null,
          provider_id: TOLL_FREE_PROVIDER,
        }));
      }
      const list = await this.client.availablePhoneNumbers('US').local.list({
        limit,
        ...(query.areaCode ? { areaCode: Number(query.areaCode) } : {}),
        ...(contains ? { contains } : {}),
      });
      return list.map((n) => ({ number: n.phoneNumber, kind: 'local', region: n.region ?? null, locality: n.locality ?? null, provider_id: LOCAL_PROVIDER }));
    } catch (e) {
      throw carrierError(e);
    }
  }

  async buyNumber(number: string, urls: { voiceUrl: string; smsUrl: string; statusCallback?: string }): Promise<PurchasedNumber> {
    try {
      const n = await this.client.incomingPhoneNumbers.create({
        phoneNumber: number,
        voiceUrl: urls.voiceUrl,
        voiceMethod: 'POST',
        smsUrl: urls.smsUrl,
        smsMethod: 'POST',
        statusCallback: urls.statusCallback ?? this.webhookUrl('voice.status'),
        statusCallbackMethod: 'POST',
      });
      return { sid: n.sid, number: n.phoneNumber };
    } catch (e) {
      throw carrierError(e);
    }
  }

  async releaseNumber(sid: string): Promise<void> {
    try {
      await this.client.incomingPhoneNumbers(sid).remove();
    } catch (e) {
      if ((e as { status?: number }).status === 404) return; // already released
      throw carrierError(e);
    }
  }

  async sendMessage(message: OutboundMessage): Promise<{ sid: string; status: string }> {
    try {
      const m = await this.client.messages.create({
        from: message.from,
        to: message.to,
        body: message.body,
        statusCallback: message.statusCallback,
        ...(message.mediaUrls.length ? { mediaUrl: message.mediaUrls } : {}),
      });
      return { sid: m.sid, status: m.status };
    } catch (e) {
      throw carrierError(e);
    }
  }

  /** A Voice SDK access token (see client-token.ts). */
  createClientToken(identity: string, options?: { outgoing?: boolean; ttlS?: number; params?: Record<string, string> }): ClientToken {
    return createTwilioClientToken(this.config, identity, options);
  }

  /**
   * Completes browser call `callSid` (Twilio ends the dialed child leg with it) and, when the call is
   * on hold, the party waiting in its hold queue (which is no longer the browser's child), then
   * removes that queue. An already ended call (404) is fine.
   * @throws CarrierError
   */
  async hangupCall(callSid: string): Promise<void> {
    try {
      await this.client.calls(callSid).update({ status: 'completed' });
    } catch (e) {
      if (!notInProgress(e)) throw carrierError(e);
    }
    try {
      const queue = await this.holdQueue(callSid);
      if (!queue) return;
      for (const member of await this.client.queues(queue.sid).members.list({ limit: 20 })) {
        await this.client
          .calls(member.callSid)
          .update({ status: 'completed' })
          .catch((e: unknown) => {
            if (!notInProgress(e)) throw e;
          });
      }
      await this.client.queues(queue.sid).remove();
    } catch (e) {
      if (!notInProgress(e)) throw carrierError(e);
    }
  }

  /** The hold queue of browser call `callSid` (`holdQueueName`), when one was created. */
  private async holdQueue(callSid: string): Promise<{ sid: string } | undefined> {
    const name = holdQueueName(callSid);
    return (await this.client.queues.list({ limit: 1000 })).find((q) => q.friendlyName === name);
  }

  /**
   * Hold without conferences (docs/calling.md "Twilio"). Holding redirects the in-progress child
   * leg of `callSid` (the party the browser dialed) to `<Enqueue>` into the call's own queue
   * (`holdQueueName`): it hears `musicUrl` through our `voice.client.hold?step=wait` TwiML (the
   * calls module plays the number's on-hold greeting, signed afresh on every loop) or, for null,
   * Twilio's default music; leaving the queue posts `voice.client.hold?step=left`. The browser's
   * `<Dial>` ends with it and its action keeps the browser leg waiting (`holdLeavesDial`).
   * Resuming redirects the browser leg `callSid` to `<Dial><Queue>` of that queue (its result to
   * `voice.client.hold?step=dial`), bridging the two again.
   * @returns false when there is no party in conversation (or the browser leg is not in progress).
   * @throws CarrierError when Twilio refuses otherwise.
   */
  async holdCall(callSid: string, hold: boolean, musicUrl: string | null): Promise<boolean> {
    const queue = holdQueueName(callSid);
    // `n` (now, in ms) makes each hold's and resume's requests deliveries of their own: a call may be held again.
    const n = Date.now();
    const url = (step: 'wait' | 'left' | 'dial') => this.webhookUrl('voice.client.hold', { sid: callSid, step, n });
    try {
      if (hold) {
        const [child] = await this.client.calls.list({ parentCallSid: callSid, status: 'in-progress', limit: 1 });
        if (!child) return false;
        const twiml = renderEnqueueTwiml(queue, { ...(musicUrl ? { waitUrl: url('wait') } : {}), action: url('left') });
        await this.client.calls(child.sid).update({ twiml: twiml.body });
        return true;
      }
      await this.client.calls(callSid).update({ twiml: renderDialQueueTwiml(queue, { action: url('dial'), timeoutS: RESUME_TIMEOUT_S }).body });
      return true;
    } catch (e) {
      if (notInProgress(e)) return false;
      throw carrierError(e);
    }
  }

  /**
   * Not supported on the server: with Twilio the Voice SDK sends keypad tones from the browser
   * (`call.sendDigits`), in the call's audio. @throws CarrierError always.
   */
  async sendDigits(): Promise<boolean> {
    throw new CarrierError('Keypad tones are sent by the Voice SDK in the browser with this carrier.');
  }

  /**
   * Blind transfer: redirects the in-progress child leg of `callSid` (the party the browser dialed)
   * to the rendered `steps`; its leaving ends the browser's `<Dial>`, whose action ends our call.
   * @returns false when no child leg is in progress. @throws CarrierError
   */
  async transferCall(callSid: string, steps: CallFlowStep[]): Promise<boolean> {
    try {
      const [child] = await this.client.calls.list({ parentCallSid: callSid, status: 'in-progress', limit: 1 });
      if (!child) return false;
      await this.client.calls(child.sid).update({ twiml: this.renderVoice(steps).body });
      return true;
    } catch (e) {
      throw carrierError(e);
    }
  }

  /**
   * Transfer of an inbound call answered in the app: redirects the call's own leg (the caller) to the rendered
   * `steps`, which ends its `<Dial>` to the browser (Twilio requests no Dial action for a leg a REST request moved).
   * @returns false when the call is not in progress (Twilio error 21220). @throws CarrierError
   */
  async redirectCall(callSid: string, steps: CallFlowStep[]): Promise<boolean> {
    try {
      await this.client.calls(callSid).update({ twiml: this.renderVoice(steps).body });
      return true;
    } catch (e) {
      if ((e as { code?: number }).code === 21220) return false;
      throw carrierError(e);
    }
  }

  /** Downloads `RecordingUrl` as WAV (Twilio's default format) with account credentials. */
  async fetchRecording(url: string): Promise<{ data: Buffer; contentType: string }> {
    // Through the server-side fetch guard (public addresses only, size cap, deadline; the
    // credentials are dropped if Twilio redirects to another origin).
    const res = await safeFetch(url, { headers: { authorization: this.basicAuth() }, maxBytes: 200 * 1024 * 1024, timeoutMs: 120_000 }).catch((e: Error) => {
      throw new CarrierError(`Recording download failed (${e.message}).`);
    });
    if (!res.ok) throw new CarrierError(`Recording download failed (${res.status}).`);
    return { data: res.body, contentType: res.contentType ?? 'audio/wav' };
  }
}
