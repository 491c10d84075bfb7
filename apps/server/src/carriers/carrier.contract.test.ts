/**
 * The carrier port's contract (docs/telephony.md "The carrier port"): the same cases run against
 * every adapter. A new carrier is added by writing an adapter and one entry of `ADAPTERS` (how to
 * build it with test credentials, how its carrier signs a webhook, and form posts recorded from
 * it); the adapter is done when this suite passes. Nothing here touches the network: the Twilio
 * adapter is built with test credentials and only its offline parts are exercised.
 */
import twilio from 'twilio';
import { describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../platform/config.js';
import type { Db } from '../platform/db/db.js';
import { UnsafeUrlError } from '../platform/http/safe-fetch.js';
import type { Queue } from '../platform/queue.js';
import { CARRIER_TEXT_LIMITS, DELIVERY_STATES, InboundMessageEvent, MessageStatusEvent, VoiceEvent, type DeliveryState } from './carrier.events.js';
import { WEBHOOK_KINDS, type CallFlowStep, type CarrierPort } from './carrier.port.js';
import { SandboxCarrier } from './sandbox/sandbox.carrier.js';
import { TwilioCarrier } from './twilio/twilio.carrier.js';

const PUBLIC_URL = 'https://switchboard.example.com';
const ACCOUNT_SID = 'ACcontract0000000000000000000000';
const AUTH_TOKEN = 'contract-auth-token';

/** Test configuration; `voice` adds the softphone credentials (API key, TwiML app). */
function testConfig(carrier: Config['carrier'], voice: boolean): Config {
  return loadConfig({
    CARRIER: carrier,
    PUBLIC_URL,
    TWILIO_ACCOUNT_SID: ACCOUNT_SID,
    TWILIO_AUTH_TOKEN: AUTH_TOKEN,
    ...(voice
      ? {
          TWILIO_API_KEY: 'SKcontract000000000000000000000000',
          TWILIO_API_SECRET: 'contract-api-secret',
          TWILIO_TWIML_APP_SID: 'APcontract000000000000000000000000',
        }
      : {}),
  });
}

/**
 * The sandbox's constructor registers its message-status jobs; these cases send nothing, so the
 * queue only records the registrations (and refuses to enqueue, which would mean a case sent).
 */
function recordingQueue(): Queue {
  const defined: string[] = [];
  return {
    define: (name: string) => {
      defined.push(name);
    },
    enqueue: () => {
      throw new Error('the contract cases send nothing');
    },
  } as unknown as Queue;
}

/** What the suite needs to know about one adapter. */
type AdapterFixture = {
  name: CarrierPort['name'];
  /** The adapter with test credentials; `voice` = with softphone credentials. */
  make(voice: boolean): CarrierPort;
  /** The signature header value the carrier would send for a POST of `params` to `url`. */
  sign(url: string, params: Record<string, string>): string;
  /** Recorded form posts of this carrier. */
  forms: {
    inboundSms: Record<string, string>;
    inboundMms: Record<string, string>;
    statusDelivered: Record<string, string>;
    statusUndelivered: Record<string, string>;
    callArrived: Record<string, string>;
    menuChoice: Record<string, string>;
    dialResult: Record<string, string>;
    recording: Record<string, string>;
    callCompleted: Record<string, string>;
    browserCall: Record<string, string>;
  };
  /** The carrier's status words for each of our delivery states. */
  statusWords: Record<DeliveryState, string[]>;
  /** A media URL on the carrier's own host and the headers a download of it carries. */
  media: { url: string; headers: Record<string, string> };
  /** Checks the rendered voice document of `steps` in the carrier's dialect. */
  expectVoice(steps: CallFlowStep[], body: string): void;
};

// Twilio's dialect: both adapters receive (sandbox) or are posted (Twilio) the same form fields.
const twilioForms: AdapterFixture['forms'] = {
  inboundSms: {
    ToCountry: 'US',
    ToState: 'NY',
    SmsMessageSid: 'SM0a1b2c3d4e5f60718293a4b5c6d7e8f9',
    NumMedia: '0',
    ToCity: 'NEW YORK',
    FromZip: '60601',
    SmsSid: 'SM0a1b2c3d4e5f60718293a4b5c6d7e8f9',
    FromState: 'IL',
    SmsStatus: 'received',
    FromCity: 'CHICAGO',
    Body: 'Is the shop open on Sunday?',
    FromCountry: 'US',
    To: '+12125550123',
    ToZip: '10001',
    NumSegments: '1',
    MessageSid: 'SM0a1b2c3d4e5f60718293a4b5c6d7e8f9',
    AccountSid: ACCOUNT_SID,
    From: '+13125557101',
    ApiVersion: '2010-04-01',
  },
  inboundMms: {
    MessageSid: 'MM11111111111111111111111111111111',
    SmsSid: 'MM11111111111111111111111111111111',
    AccountSid: ACCOUNT_SID,
    From: '+13125557101',
    To: '+12125550123',
    Body: '',
    NumMedia: '2',
    NumSegments: '1',
    SmsStatus: 'received',
    ApiVersion: '2010-04-01',
    MediaUrl0: `https://api.twilio.com/2010-04-01/Accounts/${ACCOUNT_SID}/Messages/MM11111111111111111111111111111111/Media/ME01`,
    MediaContentType0: 'image/jpeg',
    MediaUrl1: `https://api.twilio.com/2010-04-01/Accounts/${ACCOUNT_SID}/Messages/MM11111111111111111111111111111111/Media/ME02`,
    MediaContentType1: '',
  },
  statusDelivered: {
    MessageSid: 'SM22222222222222222222222222222222',
    SmsSid: 'SM22222222222222222222222222222222',
    AccountSid: ACCOUNT_SID,
    From: '+12125550123',
    To: '+13125557101',
    MessageStatus: 'delivered',
    SmsStatus: 'delivered',
    ApiVersion: '2010-04-01',
  },
  statusUndelivered: {
    SmsSid: 'SM33333333333333333333333333333333',
    AccountSid: ACCOUNT_SID,
    From: '+12125550123',
    To: '+13125550000',
    SmsStatus: 'undelivered',
    ErrorCode: '30003',
    ApiVersion: '2010-04-01',
  },
  callArrived: {
    Called: '+12125550123',
    ToState: 'NY',
    CallerCountry: 'US',
    Direction: 'inbound',
    CallerState: 'IL',
    ToZip: '',
    CallSid: 'CA44444444444444444444444444444444',
    To: '+12125550123',
    CallerZip: '',
    ToCountry: 'US',
    CallToken: '',
    CalledZip: '',
    ApiVersion: '2010-04-01',
    CalledCity: '',
    CallStatus: 'ringing',
    From: '+13125557101',
    AccountSid: ACCOUNT_SID,
    CalledCountry: 'US',
    CallerCity: 'CHICAGO',
    ToCity: '',
    FromCountry: 'US',
    Caller: '+13125557101',
    FromCity: 'CHICAGO',
    CalledState: 'NY',
    FromZip: '',
    FromState: 'IL',
  },
  menuChoice: {
    CallSid: 'CA44444444444444444444444444444444',
    AccountSid: ACCOUNT_SID,
    From: '+13125557101',
    To: '+12125550123',
    CallStatus: 'in-progress',
    Direction: 'inbound',
    Digits: '2#',
    FinishedOnKey: '#',
    msg: 'Gather End',
    ApiVersion: '2010-04-01',
  },
  dialResult: {
    CallSid: 'CA44444444444444444444444444444444',
    AccountSid: ACCOUNT_SID,
    From: '+13125557101',
    To: '+12125550123',
    CallStatus: 'in-progress',
    DialCallSid: 'CA55555555555555555555555555555555',
    DialCallStatus: 'completed',
    DialCallDuration: '42',
    DialBridged: 'true',
    ApiVersion: '2010-04-01',
  },
  recording: {
    CallSid: 'CA44444444444444444444444444444444',
    AccountSid: ACCOUNT_SID,
    From: '+13125557101',
    To: '+12125550123',
    CallStatus: 'completed',
    RecordingUrl: `https://api.twilio.com/2010-04-01/Accounts/${ACCOUNT_SID}/Recordings/RE66666666666666666666666666666666`,
    RecordingSid: 'RE66666666666666666666666666666666',
    RecordingDuration: '17.4',
    Digits: 'hangup',
    ApiVersion: '2010-04-01',
  },
  callCompleted: {
    CallSid: 'CA44444444444444444444444444444444',
    AccountSid: ACCOUNT_SID,
    From: '+13125557101',
    To: '+12125550123',
    CallStatus: 'completed',
    CallDuration: '65',
    Duration: '2',
    Timestamp: 'Mon, 23 Nov 2026 02:53:38 +0000',
    CallbackSource: 'call-progress-events',
    SequenceNumber: '0',
    ApiVersion: '2010-04-01',
  },
  browserCall: {
    AccountSid: ACCOUNT_SID,
    ApplicationSid: 'APcontract000000000000000000000000',
    CallSid: 'CA77777777777777777777777777777777',
    CallStatus: 'ringing',
    Direction: 'inbound',
    From: 'client:user_12',
    Caller: 'client:user_12',
    To: '+13125557101',
    call_id: '901',
    number_id: '33',
    ApiVersion: '2010-04-01',
  },
};

const twilioStatusWords: AdapterFixture['statusWords'] = {
  queued: ['accepted', 'scheduled', 'queued'],
  sending: ['sending'],
  sent: ['sent'],
  delivered: ['delivered', 'read', 'DELIVERED'],
  undelivered: ['undelivered'],
  failed: ['failed', 'canceled'],
};

/** TwiML: one element per step, in order, with its action URL XML-escaped. */
function expectTwiml(steps: CallFlowStep[], body: string): void {
  expect(body.startsWith('<?xml version="1.0" encoding="UTF-8"?><Response>')).toBe(true);
  const verbs = [...body.matchAll(/<Response>(.*)<\/Response>/g)][0]?.[1] ?? '';
  const top = [...verbs.matchAll(/<(Say|Play|Pause|Gather|Dial|Record|Redirect|Hangup|Reject)\b[^>]*?(\/>|>)/g)].map((m) => m[1]);
  const expected: Record<CallFlowStep['kind'], string> = {
    say: 'Say',
    play: 'Play',
    pause: 'Pause',
    gather: 'Gather',
    dial: 'Dial',
    record: 'Record',
    redirect: 'Redirect',
    hangup: 'Hangup',
    reject: 'Reject',
  };
  expect(top[0]).toBe(expected[steps[0]!.kind]);
  for (const s of steps) expect(top).toContain(expected[s.kind]);
}

const ADAPTERS: AdapterFixture[] = [
  {
    name: 'sandbox',
    make: (voice) => new SandboxCarrier(testConfig('sandbox', voice), {} as Db, recordingQueue()),
    sign: (url, params) => twilio.getExpectedTwilioSignature(AUTH_TOKEN, url, params),
    forms: twilioForms,
    statusWords: twilioStatusWords,
    // Simulated handsets' media are public: a sandbox download carries no credentials.
    media: { url: 'https://media.example.org/cat.jpg', headers: {} },
    expectVoice: expectTwiml,
  },
  {
    name: 'twilio',
    make: (voice) => new TwilioCarrier(testConfig('twilio', voice)),
    sign: (url, params) => twilio.getExpectedTwilioSignature(AUTH_TOKEN, url, params),
    forms: twilioForms,
    statusWords: twilioStatusWords,
    media: {
      url: `https://api.twilio.com/2010-04-01/Accounts/${ACCOUNT_SID}/Messages/MM1/Media/ME1`,
      headers: { authorization: `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}` },
    },
    expectVoice: expectTwiml,
  },
];

/** Call-flow steps of a few routing decisions (menu, forward with whisper, voicemail, busy). */
const DECISIONS: Record<string, CallFlowStep[]> = {
  menu: [
    {
      kind: 'gather',
      numDigits: 1,
      timeoutS: 5,
      action: `${PUBLIC_URL}/hook?attempt=1&ext=2`,
      prompt: [{ kind: 'say', text: 'Press 1 for sales & 2 for support.' }],
    },
  ],
  forward: [
    { kind: 'play', url: `${PUBLIC_URL}/files/greeting.wav` },
    {
      kind: 'dial',
      numbers: [{ number: '+16465550101', url: `${PUBLIC_URL}/whisper?call=CA1&ext=1` }, { number: '+16465550102' }],
      clients: ['user_12'],
      timeoutS: 20,
      action: `${PUBLIC_URL}/dial?ext=1&i=0`,
      callerId: '+12125550123',
    },
  ],
  voicemail: [
    { kind: 'say', text: 'Please leave a message.' },
    { kind: 'record', action: `${PUBLIC_URL}/rec?ext=1`, maxLengthS: 120, playBeep: true },
    { kind: 'hangup' },
  ],
  busy: [{ kind: 'reject', reason: 'busy' }],
};

const xmlEscaped = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

describe.each(ADAPTERS)('carrier contract: $name', (fx) => {
  const carrier = fx.make(false);

  it('names itself and declares every capability as a flag', () => {
    expect(carrier.name).toBe(fx.name);
    expect(carrier.displayName.length).toBeGreaterThan(0);
    for (const key of ['voiceSdk', 'voiceSdkOutgoing', 'mms', 'fax', 'numberPorting', 'simulator'] as const)
      expect(typeof carrier.capabilities[key]).toBe('boolean');
    expect(carrier.sipDomain).toMatch(/^[a-z0-9.-]+$/);
    for (const origin of carrier.browserOrigins) expect(origin).toMatch(/^(https|wss):\/\/[a-z0-9.*-]+$/);
  });

  it('issues softphone tokens exactly when its capabilities say so', () => {
    for (const c of [carrier, fx.make(true)]) {
      const incoming = () => c.createClientToken('user_12', { ttlS: 600 });
      if (c.capabilities.voiceSdk) {
        const t = incoming();
        expect(t).toMatchObject({ identity: 'user_12', ttlS: 600 });
        expect(t.token.length).toBeGreaterThan(20);
      } else expect(incoming).toThrow();
      const outgoing = () => c.createClientToken('user_12', { outgoing: true, params: { call_id: '1' } });
      if (c.capabilities.voiceSdk && c.capabilities.voiceSdkOutgoing) expect(outgoing().identity).toBe('user_12');
      else expect(outgoing).toThrow();
    }
    expect(fx.make(true).capabilities.voiceSdk).toBe(true);
  });

  it('serves each webhook on its own path and builds its public URL from PUBLIC_URL', () => {
    const paths = WEBHOOK_KINDS.map((k) => carrier.webhookPath(k));
    expect(new Set(paths).size).toBe(WEBHOOK_KINDS.length);
    for (const kind of WEBHOOK_KINDS) {
      const path = carrier.webhookPath(kind);
      expect(path).toMatch(/^\/webhooks\/[a-z0-9/._-]+$/);
      expect(carrier.webhookUrl(kind)).toBe(PUBLIC_URL + path);
    }
    const url = new URL(carrier.webhookUrl('voice.whisper', { call: 'CA1 & 2', ext: 3, rr: undefined }));
    expect(url.origin + url.pathname).toBe(PUBLIC_URL + carrier.webhookPath('voice.whisper'));
    expect(Object.fromEntries(url.searchParams)).toEqual({ call: 'CA1 & 2', ext: '3' });
  });

  it('accepts a webhook signed by the carrier and refuses a forged, altered or unsigned one', () => {
    const url = carrier.webhookUrl('messaging.status', { item: 17 });
    const params = fx.forms.statusDelivered;
    const signature = fx.sign(url, params);
    expect(carrier.verifyWebhook(url, params, signature)).toBe(true);
    expect(carrier.signatureHeader).toMatch(/^[a-z0-9-]+$/); // Node lower-cases header names
    expect(carrier.verifyWebhook(url, { ...params, MessageStatus: 'failed' }, signature)).toBe(false);
    expect(carrier.verifyWebhook(carrier.webhookUrl('messaging.status', { item: 18 }), params, signature)).toBe(false);
    expect(carrier.verifyWebhook(url, params, undefined)).toBe(false);
    expect(carrier.verifyWebhook(url, params, 'not-a-signature')).toBe(false);
  });

  it('parses an inbound SMS and MMS into carrier-neutral events', () => {
    const sms = carrier.parseInboundMessage(fx.forms.inboundSms);
    expect(sms).toEqual({
      sid: 'SM0a1b2c3d4e5f60718293a4b5c6d7e8f9',
      from: '+13125557101',
      to: '+12125550123',
      body: 'Is the shop open on Sunday?',
      bodyTruncated: false,
      bodyLength: 27,
      media: [],
    });
    expect(InboundMessageEvent.parse(sms)).toEqual(sms);
    const mms = carrier.parseInboundMessage(fx.forms.inboundMms);
    expect(mms?.media).toEqual([
      { url: fx.forms.inboundMms.MediaUrl0, contentType: 'image/jpeg' },
      { url: fx.forms.inboundMms.MediaUrl1, contentType: 'application/octet-stream' },
    ]);
    expect(mms?.body).toBe('');
    expect(carrier.parseInboundMessage({ From: '+13125557101', To: '+12125550123', Body: 'no id' })).toBeNull();
  });

  it("bounds every text of a webhook by the carrier's limits, and says what was cut from a message body", () => {
    const long = 'x'.repeat(64 * 1024);
    const sms = carrier.parseInboundMessage({ ...fx.forms.inboundSms, Body: `${'é'.repeat(1599)}\u{1F600}${long}`, From: long, To: long });
    expect(sms?.body).toBe(`${'é'.repeat(1599)}\u{1F600}`); // 1,600 characters, the emoji kept whole
    expect(sms).toMatchObject({ bodyTruncated: true, bodyLength: 1600 + long.length });
    expect(sms!.from.length).toBe(CARRIER_TEXT_LIMITS.party);
    expect(sms!.to.length).toBe(CARRIER_TEXT_LIMITS.party);
    expect(carrier.parseInboundMessage({ ...fx.forms.inboundSms, Body: 'a'.repeat(1600) })).toMatchObject({ bodyTruncated: false, bodyLength: 1600 });
    // An id longer than any carrier id is no message; a media URL longer than a URL is left out.
    expect(carrier.parseInboundMessage({ ...fx.forms.inboundSms, MessageSid: `SM${long}` })).toBeNull();
    expect(carrier.parseInboundMessage({ ...fx.forms.inboundMms, MediaUrl0: `https://example.com/${long}`, MediaContentType0: long })?.media).toHaveLength(1);
    expect(carrier.parseMessageStatus({ ...fx.forms.statusDelivered, MessageSid: long })).toBeNull();
    const voice = carrier.parseVoice({
      CallSid: 'CA1',
      From: long,
      To: long,
      FromCity: long,
      FromState: long,
      Digits: long,
      DialCallStatus: long,
      RecordingUrl: long,
      [`p${long}`]: 'x',
      call_id: long,
    });
    expect(voice.from?.length).toBe(CARRIER_TEXT_LIMITS.party);
    expect(voice.fromCity?.length).toBe(CARRIER_TEXT_LIMITS.place);
    expect(voice.fromState?.length).toBe(CARRIER_TEXT_LIMITS.place);
    expect(voice.digits?.length).toBe(CARRIER_TEXT_LIMITS.digits);
    expect(voice.dialStatus?.length).toBe(CARRIER_TEXT_LIMITS.word);
    expect(voice.recordingUrl?.length).toBe(CARRIER_TEXT_LIMITS.url);
    expect(voice.clientParams).toEqual({ call_id: 'x'.repeat(CARRIER_TEXT_LIMITS.clientParam) });
  });

  it('parses delivery updates, with the carrier word kept and mapped to our state', () => {
    const delivered = carrier.parseMessageStatus(fx.forms.statusDelivered);
    expect(delivered).toEqual({ sid: 'SM22222222222222222222222222222222', status: 'delivered', state: 'delivered', errorCode: null });
    const undelivered = carrier.parseMessageStatus(fx.forms.statusUndelivered);
    expect(undelivered).toEqual({ sid: 'SM33333333333333333333333333333333', status: 'undelivered', state: 'undelivered', errorCode: 30003 });
    expect(MessageStatusEvent.parse(undelivered)).toEqual(undelivered);
    expect(carrier.parseMessageStatus({ ...fx.forms.statusDelivered, MessageStatus: 'teleported', SmsStatus: 'teleported' })?.state).toBeNull();
    expect(carrier.parseMessageStatus({ MessageStatus: 'delivered' })).toBeNull();
  });

  it('maps every status word to our delivery states and unknown words to null', () => {
    for (const state of DELIVERY_STATES) {
      expect(fx.statusWords[state].length).toBeGreaterThan(0);
      for (const word of fx.statusWords[state]) expect(carrier.messageState(word)).toBe(state);
    }
    expect(carrier.messageState('')).toBeNull();
    expect(carrier.messageState('received-by-martians')).toBeNull();
  });

  it('parses the voice webhooks of a call into carrier-neutral events', () => {
    const arrived = carrier.parseVoice(fx.forms.callArrived);
    expect(arrived).toMatchObject({
      callSid: 'CA44444444444444444444444444444444',
      from: '+13125557101',
      to: '+12125550123',
      fromState: 'IL',
      fromCity: 'CHICAGO',
      callStatus: 'ringing',
      callDurationS: 0,
    });
    expect(arrived.clientParams).toEqual({});
    expect(arrived.fromClient).toBeUndefined();
    expect(carrier.parseVoice(fx.forms.menuChoice).digits).toBe('2#');
    expect(carrier.parseVoice(fx.forms.dialResult)).toMatchObject({ dialStatus: 'completed', dialDurationS: 42 });
    expect(carrier.parseVoice(fx.forms.recording)).toMatchObject({
      recordingUrl: fx.forms.recording.RecordingUrl,
      recordingSid: 'RE66666666666666666666666666666666',
      recordingDurationS: 17,
    });
    expect(carrier.parseVoice(fx.forms.callCompleted)).toMatchObject({ callStatus: 'completed', callDurationS: 65 });
    const browser = carrier.parseVoice(fx.forms.browserCall);
    expect(browser).toMatchObject({ callSid: 'CA77777777777777777777777777777777', from: 'client:user_12', fromClient: 'user_12', to: '+13125557101' });
    expect(browser.clientParams).toEqual({ call_id: '901', number_id: '33' });
    for (const form of Object.values(fx.forms)) expect(() => VoiceEvent.parse(carrier.parseVoice(form))).not.toThrow();
  });

  it('reads a malformed voice post as absent fields, never as garbage', () => {
    const e = carrier.parseVoice({ CallSid: '', CallStatus: 'exploded', CallDuration: 'long', DialCallDuration: '-5', RecordingDuration: '' });
    expect(e).toMatchObject({ callSid: undefined, callStatus: undefined, callDurationS: 0, dialDurationS: 0, recordingDurationS: 0 });
  });

  it.each(Object.entries(DECISIONS))('renders the %s decision as its voice document', (_, steps) => {
    const out = carrier.renderVoice(steps);
    expect(out.contentType).toMatch(/xml|json|text/);
    fx.expectVoice(steps, out.body);
    for (const s of steps) {
      if ('action' in s) expect(out.body).toContain(xmlEscaped(s.action));
      if (s.kind === 'dial') for (const n of s.numbers) expect(out.body).toContain(n.number);
      if (s.kind === 'say') expect(out.body).toContain(xmlEscaped(s.text));
    }
    expect(carrier.renderVoice(JSON.parse(JSON.stringify(steps)) as CallFlowStep[])).toEqual(out);
    expect(carrier.renderMessaging().body.length).toBeGreaterThan(0);
    expect(carrier.renderMessaging('Reply STOP to opt out.').body).toContain('Reply STOP to opt out.');
  });

  it("authenticates media downloads on the carrier's own hosts only", () => {
    expect(carrier.mediaRequestHeaders(fx.media.url)).toEqual(fx.media.headers);
    // Credentials never go to another host, a look-alike or a non-URL.
    for (const url of ['https://evil.example.com/x.jpg', 'https://api.twilio.com.evil.example/x.jpg', 'https://nottwilio.com/x', 'not a url']) {
      expect(carrier.mediaRequestHeaders(url)).toEqual({});
    }
  });

  it('downloads media through the server-side fetch guard', async () => {
    await expect(carrier.downloadMedia('http://127.0.0.1:9/private.jpg')).rejects.toBeInstanceOf(UnsafeUrlError);
    await expect(carrier.downloadMedia('file:///etc/passwd')).rejects.toBeInstanceOf(UnsafeUrlError);
  });
});
