/**
 * Production carrier adapter over Twilio's REST API (the official `twilio` package):
 * number search/purchase/release, outbound SMS/MMS, Voice SDK tokens, recording and media downloads
 * with the account's credentials; webhook parsing, TwiML and signatures come from `TwilioDialect`.
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

/** Provider ids (spec 002 provider labels): 1 the carrier for local numbers, 2 the toll-free registry. */
const LOCAL_PROVIDER = 1;
const TOLL_FREE_PROVIDER = 2;

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
  private readonly client: twilio.Twilio;

  constructor(config: Config) {
    super(config);
    this.client = twilio(config.twilioAccountSid, config.twilioAuthToken);
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

  /** Completes browser call `callSid` (Twilio ends the dialed child leg with it); an already ended call (404) is fine. */
  async hangupCall(callSid: string): Promise<void> {
    try {
      await this.client.calls(callSid).update({ status: 'completed' });
    } catch (e) {
      if ((e as { status?: number }).status === 404) return;
      throw carrierError(e);
    }
  }

  /**
   * Not supported: redirecting Twilio's dialed child leg to music ends the browser's `<Dial>`, so
   * hold needs conference-based calls (docs/calling.md "Twilio").
   * @throws CarrierError always.
   */
  async holdCall(): Promise<boolean> {
    throw new CarrierError('Hold is not supported by this carrier yet: Twilio needs conference calls for it.');
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
