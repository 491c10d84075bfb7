/**
 * The sandbox's call and message simulator: plays the outside party and the carrier. A call is
 * run synchronously, exactly as Twilio would: signed form webhooks to the product, TwiML parsed
 * (fast-xml-parser) and followed verb by verb, status callback at the end. See docs/telephony.md.
 *
 * Carrier behaviour only: it imports no module. Browser users answering `<Client>` legs are
 * reached through the `BrowserLegs` the caller passes in (the simulator module wires in-app
 * calling's waits); the Phone simulator's API and its tenant checks are `modules/simulator/`.
 */
import { XMLParser } from 'fast-xml-parser';
import { areaCodeOf } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import { CARRIER_URL_TTL_MS } from '../../platform/blob/access.js';
import { newSid, postSigned } from './sandbox.http.js';
import { AREA_CODES } from './sandbox.inventory.js';
import { sandboxRepository } from './sandbox.repository.js';
import { sineWav } from './sandbox.wav.js';
import { recordConversation, recordVoicemail, type ScriptLine, type Speak } from './sandbox.recording.js';
import type { SandboxMessageRow } from './sandbox.repository.js';

/** How a browser user's answer to a ringing `<Client>` leg ended. */
export type BrowserAnswer =
  | { kind: 'answered'; userId: number; callId: number; /** The person's name, when known (the call log names them). */ name?: string }
  | { kind: 'rejected' }
  | { kind: 'ended' }
  | { kind: 'timeout' };

/**
 * The browser side of in-app calling as the simulated carrier sees it (what a real carrier learns
 * from its softphone SDK): wait for a user to answer the call with carrier SID `sid` (or for the
 * ring to end), then for that user to hang up (true) or the time to run out (false).
 */
export type BrowserLegs = {
  waitForAnswer(sid: string, timeoutMs: number): Promise<BrowserAnswer>;
  waitForHangup(callId: number, maxMs: number): Promise<boolean>;
  /** A call placed from the browser and transferred to a user: wait for that user to answer our call `callId` (docs/calling.md "Transfer"). */
  waitForCallAnswer(callId: number, timeoutMs: number): Promise<BrowserAnswer>;
};

/** No browser users reachable (e.g. the demo seed): a `<Client>` leg rings until its timeout, unanswered. */
const NO_BROWSERS: BrowserLegs = {
  waitForAnswer: async () => ({ kind: 'timeout' }),
  waitForHangup: async () => false,
  waitForCallAnswer: async () => ({ kind: 'timeout' }),
};

export type ForwardBehaviour = 'answer' | 'no-answer' | 'busy';
export type SimulatedCall = {
  from: string;
  to: string;
  /** What the caller presses at menus, consumed numDigits at a time. */
  digits?: string;
  forwards?: Record<string, ForwardBehaviour>;
  /** Whether an answering forward presses the confirm key when asked (default true). */
  confirm?: boolean;
  /** Length of the caller's voicemail when asked; 0 = hangs up (default 5). */
  voicemail_seconds?: number;
  /** How long a connected call talks (default 30 s). With an in-app (browser) answer: real seconds, unless the user hangs up first. */
  talk_seconds?: number;
  /**
   * What the caller and the agent say once connected, in order (docs/transcription.md "The sandbox loop"):
   * spoken into the two channels of the call's recording when the number records; the caller's lines
   * also make the voicemail when the call goes to voicemail.
   */
  script?: ScriptLine[];
};

/** Longest real wait for a browser user to hang up an answered in-app call (ms). */
export const BROWSER_TALK_MAX_MS = 10 * 60_000;
export type LogEntry = { at: string; step: string; detail: string };
export type CallResult = { sid: string; status: string; log: LogEntry[] };

type Node = { name: string; attrs: Record<string, string>; children: Node[]; text: string };

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
});

/** Parses a TwiML document into its `<Response>` verbs. */
export function parseTwiml(xml: string): Node[] {
  const toNodes = (items: any[]): Node[] =>
    items
      .filter((it) => !('#text' in it) && !('?xml' in it))
      .map((it) => {
        const name = Object.keys(it).find((k) => k !== ':@')!;
        const children: any[] = it[name] ?? [];
        return {
          name,
          attrs: Object.fromEntries(Object.entries((it[':@'] ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)])),
          children: toNodes(children),
          text: children
            .filter((c) => '#text' in c)
            .map((c) => String(c['#text']))
            .join(''),
        };
      });
  const root = toNodes(parser.parse(xml) as any[]).find((n) => n.name === 'Response');
  return root?.children ?? [];
}

const MAX_DOCUMENTS = 40;

class CallRun {
  readonly sid = newSid('CA');
  readonly log: LogEntry[] = [];
  private clock = 0; // simulated seconds since the call arrived
  private readonly start = Date.now();
  private answeredAt: number | null = null;
  private digits: string;
  private readonly base: Record<string, string>;

  constructor(
    private readonly ctx: AppContext,
    private readonly call: SimulatedCall & { from: string; to: string },
    private readonly voiceUrl: string,
    private readonly browser: BrowserLegs,
    private readonly speak?: Speak,
  ) {
    this.digits = call.digits ?? '';
    const fromArea = areaCodeOf(call.from);
    const toArea = areaCodeOf(call.to);
    const fromPlace = fromArea ? AREA_CODES[fromArea] : undefined;
    const toPlace = toArea ? AREA_CODES[toArea] : undefined;
    this.base = {
      CallSid: this.sid,
      AccountSid: ctx.config.twilioAccountSid,
      From: call.from,
      To: call.to,
      Caller: call.from,
      Called: call.to,
      Direction: 'inbound',
      ApiVersion: '2010-04-01',
      FromCountry: 'US',
      ToCountry: 'US',
      FromState: fromPlace?.state ?? '',
      FromCity: fromPlace?.city ?? '',
      ToState: toPlace?.state ?? '',
      ToCity: toPlace?.city ?? '',
    };
  }

  private note(step: string, detail: string, seconds = 0): void {
    this.log.push({ at: new Date(this.start + this.clock * 1000).toISOString(), step, detail });
    this.clock += seconds;
  }

  private async post(url: string, params: Record<string, string>, step: string): Promise<Node[] | null> {
    const res = await postSigned(this.ctx.config, url, params);
    this.note('webhook', `${step} → ${new URL(url, this.ctx.config.publicUrl).pathname} answered ${res.status}`);
    if (res.status !== 200) return null;
    return parseTwiml(res.body);
  }

  private params(extra: Record<string, string> = {}): Record<string, string> {
    return { ...this.base, CallStatus: this.answeredAt === null ? 'ringing' : 'in-progress', ...extra };
  }

  /** Runs the whole call; returns the final CallStatus. */
  async run(): Promise<string> {
    this.note('call', `${this.call.from} calls ${this.call.to}`);
    let verbs = await this.post(this.voiceUrl, this.params(), 'incoming call');
    let final = 'completed';
    let docs = 0;
    outer: while (verbs && docs++ < MAX_DOCUMENTS) {
      const current = verbs;
      verbs = null;
      for (const verb of current) {
        if (verb.name !== 'Reject' && this.answeredAt === null) {
          this.answeredAt = this.clock;
        }
        const outcome = await this.execute(verb);
        if (outcome.kind === 'continue') continue;
        if (outcome.kind === 'fetch') {
          verbs = outcome.verbs;
          continue outer;
        }
        final = outcome.status;
        break outer;
      }
      // Falling off the end of a document hangs up.
      this.note('hangup', 'end of instructions');
      break;
    }
    const duration = this.answeredAt === null ? 0 : Math.max(0, Math.round(this.clock - this.answeredAt));
    await this.post(this.voiceUrl.replace(/\/+$/, '') + '/status', { ...this.base, CallStatus: final, CallDuration: String(duration) }, `status ${final}`);
    return final;
  }

  private async execute(verb: Node): Promise<{ kind: 'continue' } | { kind: 'fetch'; verbs: Node[] | null } | { kind: 'end'; status: string }> {
    switch (verb.name) {
      case 'Say':
        this.note('say', verb.text, Math.ceil(verb.text.length / 15));
        return { kind: 'continue' };
      case 'Play':
        this.note('play', verb.text, 3);
        return { kind: 'continue' };
      case 'Pause':
        this.note('pause', `${verb.attrs.length ?? 1} s`, Number(verb.attrs.length ?? 1));
        return { kind: 'continue' };
      case 'Gather': {
        for (const p of verb.children) await this.execute(p);
        const n = Number(verb.attrs.numDigits ?? 1);
        const pressed = this.digits.slice(0, n);
        this.digits = this.digits.slice(n);
        if (!pressed) this.note('gather', 'caller pressed nothing', Number(verb.attrs.timeout ?? 5));
        else this.note('gather', `caller pressed ${pressed}`, 1);
        if (!pressed && verb.attrs.actionOnEmptyResult !== 'true') return { kind: 'continue' };
        return { kind: 'fetch', verbs: await this.post(verb.attrs.action ?? this.voiceUrl, this.params({ Digits: pressed }), `gather ${pressed || '(none)'}`) };
      }
      case 'Dial':
        return this.dial(verb);
      case 'Record': {
        const seconds = this.call.voicemail_seconds ?? 5;
        if (seconds <= 0) {
          this.note('record', 'caller hung up without leaving a message');
          return { kind: 'end', status: 'completed' };
        }
        const recordingSid = newSid('RE');
        const key = `sandbox/recordings/${recordingSid}.wav`;
        const callerLines = (this.call.script ?? []).filter((l) => l.speaker === 'caller').map((l) => l.text);
        await this.ctx.blobs.put(key, callerLines.length > 0 && this.speak ? (await recordVoicemail(callerLines, seconds, this.speak)).wav : sineWav(seconds));
        this.note('record', `caller left a ${seconds} s message`, seconds);
        if (verb.attrs.action) {
          // Signed like a carrier's recording URL: the product fetches it without a session.
          await this.post(
            verb.attrs.action,
            this.params({
              RecordingUrl: this.ctx.blobs.signedUrl(key, CARRIER_URL_TTL_MS),
              RecordingDuration: String(seconds),
              RecordingSid: recordingSid,
              Digits: 'hangup',
            }),
            'recording',
          );
        }
        return { kind: 'end', status: 'completed' };
      }
      case 'Redirect':
        return { kind: 'fetch', verbs: await this.post(verb.text, this.params(), 'redirect') };
      case 'Hangup':
        this.note('hangup', 'the product hung up');
        return { kind: 'end', status: 'completed' };
      case 'Reject': {
        const busy = verb.attrs.reason === 'busy';
        this.note('reject', `call rejected (${verb.attrs.reason ?? 'rejected'})`);
        return { kind: 'end', status: busy ? 'busy' : 'no-answer' };
      }
      default:
        this.note('ignored', `<${verb.name}> is not simulated`);
        return { kind: 'continue' };
    }
  }

  /** Rings the Dial's numbers; the first one that answers (and confirms, when asked) connects. */
  private async dial(verb: Node): Promise<{ kind: 'continue' } | { kind: 'fetch'; verbs: Node[] | null } | { kind: 'end'; status: string }> {
    const timeout = Number(verb.attrs.timeout ?? 30);
    // <Client> legs (in-app calling) with a behaviour in `forwards` are rung like numbers; the
    // others are browser users, who answer through the in-app calling API (see browserDial).
    const browser = verb.children.filter((c) => c.name === 'Client' && !this.call.forwards?.[c.text]);
    if (browser.length > 0) return this.browserDial(verb, browser, timeout);
    const numbers = verb.children.filter((c) => c.name === 'Number' || c.name === 'Client');
    this.note('dial', `ringing ${numbers.map((n) => n.text).join(', ')} for up to ${timeout} s${verb.attrs.callerId ? ` showing ${verb.attrs.callerId}` : ''}`);
    let connected: string | null = null;
    const behaviours: ForwardBehaviour[] = [];
    for (const n of numbers) {
      const behaviour = this.call.forwards?.[n.text] ?? 'answer';
      behaviours.push(behaviour);
      if (behaviour !== 'answer' || connected) {
        if (behaviour !== 'answer') this.note('forward', `${n.text}: ${behaviour}`);
        continue;
      }
      if (n.attrs.url && !(await this.whisper(n))) continue;
      connected = n.text;
    }
    let dialStatus: string;
    let talk = 0;
    if (connected) {
      talk = this.call.talk_seconds ?? 30;
      dialStatus = 'completed';
      if (verb.attrs.record?.startsWith('record-from-answer')) talk = await this.record(verb, talk);
      this.note('connected', `talking with ${connected}`, talk);
    } else {
      dialStatus = behaviours.length > 0 && behaviours.every((b) => b === 'busy') ? 'busy' : 'no-answer';
      this.clock += dialStatus === 'busy' ? 1 : timeout;
      this.note('dial', `no one answered (${dialStatus})`);
    }
    if (verb.attrs.action) {
      const verbs = await this.post(
        verb.attrs.action,
        this.params({ DialCallStatus: dialStatus, DialCallSid: newSid('CA'), DialCallDuration: String(talk) }),
        `dial ${dialStatus}`,
      );
      await this.postRecording();
      return { kind: 'fetch', verbs };
    }
    await this.postRecording();
    if (connected) return { kind: 'end', status: 'completed' };
    return { kind: 'continue' };
  }

  /**
   * In-app calling: the `<Client>` legs ring browser users (they got a 'ringing' event on
   * `user.{id}`); waits in real time, up to the Dial's timeout, for one of them to answer via
   * `POST .../in-app-calling/calls/{id}/answer` (or for all to decline). After an answer the
   * caller talks until the user hangs up (`.../hangup`) or `talk_seconds` real seconds pass
   * (default: BROWSER_TALK_MAX_MS). Then the Dial's action gets DialCallStatus completed or no-answer. A recorded
   * Dial leaves a two-channel recording of the answered talk (its status callback after the action), as with a forward.
   */
  private async browserDial(
    verb: Node,
    clients: Node[],
    timeout: number,
  ): Promise<{ kind: 'continue' } | { kind: 'fetch'; verbs: Node[] | null } | { kind: 'end'; status: string }> {
    this.note('dial', `ringing in-app ${clients.map((c) => c.text).join(', ')} for up to ${timeout} s`);
    const started = Date.now();
    const r = await this.browser.waitForAnswer(this.sid, timeout * 1000);
    const waited = Math.round((Date.now() - started) / 1000);
    let dialStatus = 'no-answer';
    let talk = 0;
    if (r.kind === 'answered') {
      // "Dana Demo (user_1)": the person, with the identity the carrier knows.
      const who = r.name ? `${r.name} (user_${r.userId})` : `user_${r.userId}`;
      this.clock += waited;
      const t0 = Date.now();
      const maxMs = this.call.talk_seconds !== undefined ? this.call.talk_seconds * 1000 : BROWSER_TALK_MAX_MS;
      const end = await this.talkToBrowser(r.callId, maxMs);
      talk = Math.round((Date.now() - t0) / 1000);
      // A recorded Dial (`record-from-answer-dual`) records the browser leg's talk like a forward's: the caller on
      // channel 0, the browser user (agent) on channel 1, the Conversation panel's lines spoken at their times.
      const recorded = verb.attrs.record?.startsWith('record-from-answer') ?? false;
      if (recorded) talk = Math.max(talk, await this.record(verb, talk));
      if (end.kind === 'redirect') {
        // A transfer moved the caller's leg: this Dial ends without its action (as with Twilio), the caller follows the
        // new TwiML; the recording of the answered part is announced at once.
        this.clock += talk;
        this.note('transfer', `${who} transferred the call`, talk);
        await this.postRecording();
        return { kind: 'fetch', verbs: parseTwiml(end.twiml) };
      }
      dialStatus = 'completed';
      this.note('connected', `talking with ${who} in the browser; ${end.kind === 'hangup' ? 'the user hung up' : 'the caller hung up'}`, talk);
    } else {
      this.clock += r.kind === 'timeout' ? timeout : waited;
      this.note('dial', `no one answered in the browser (${r.kind})`);
    }
    if (verb.attrs.action) {
      const verbs = await this.post(
        verb.attrs.action,
        this.params({ DialCallStatus: dialStatus, DialCallSid: newSid('CA'), DialCallDuration: String(talk) }),
        `dial ${dialStatus}`,
      );
      // As Twilio does: the recording status callback comes after the Dial's action.
      await this.postRecording();
      return { kind: 'fetch', verbs };
    }
    await this.postRecording();
    return dialStatus === 'completed' ? { kind: 'end', status: 'completed' } : { kind: 'continue' };
  }

  /**
   * While the caller talks to a browser user: up to `maxMs`, the user hanging up, a redirect of this call's leg (a
   * transfer: `CarrierPort.redirectCall`), or the time running out (the caller hangs up). Looks for a redirect at
   * least every 300 ms, and again when the user's leg ends (a transfer ends it after recording the redirect).
   */
  private async talkToBrowser(callId: number, maxMs: number): Promise<{ kind: 'hangup' | 'timeout' } | { kind: 'redirect'; twiml: string }> {
    const end = Date.now() + maxMs;
    for (;;) {
      const twiml = await sandboxRepository.takeRedirect(this.ctx.db, this.sid);
      if (twiml) return { kind: 'redirect', twiml };
      const left = end - Date.now();
      if (left <= 0) return { kind: 'timeout' };
      if (await this.browser.waitForHangup(callId, Math.min(300, left))) {
        const late = await sandboxRepository.takeRedirect(this.ctx.db, this.sid);
        return late ? { kind: 'redirect', twiml: late } : { kind: 'hangup' };
      }
    }
  }

  private recording: { url: string; sid: string; durationS: number; callback: string } | null = null;

  /**
   * `<Dial record="record-from-answer-dual">`: speaks the call's script into a two-channel recording
   * (sandbox.recording.ts), stores it like a carrier's recording, and keeps its status callback for
   * after the Dial's action (as Twilio posts it once the recording is processed).
   * @returns how long the conversation lasted (s): the script's length, at least `talk`.
   */
  private async record(verb: Node, talk: number): Promise<number> {
    const made = await recordConversation(this.call.script ?? [], talk, this.speak);
    const sid = newSid('RE');
    const key = `sandbox/recordings/${sid}.wav`;
    await this.ctx.blobs.put(key, made.wav);
    this.note('record', `recording both sides (${made.segments.length} lines, ${made.durationS} s)`);
    if (verb.attrs.recordingStatusCallback) {
      this.recording = { url: this.ctx.blobs.signedUrl(key, CARRIER_URL_TTL_MS), sid, durationS: made.durationS, callback: verb.attrs.recordingStatusCallback };
    }
    return made.durationS;
  }

  /** Posts the pending recording status callback (RecordingStatus completed, two channels). */
  private async postRecording(): Promise<void> {
    const r = this.recording;
    if (!r) return;
    this.recording = null;
    await this.post(
      r.callback,
      {
        AccountSid: this.ctx.config.twilioAccountSid,
        CallSid: this.sid,
        RecordingSid: r.sid,
        RecordingUrl: r.url,
        RecordingStatus: 'completed',
        RecordingDuration: String(r.durationS),
        RecordingChannels: '2',
        RecordingSource: 'DialVerb',
        RecordingStartTime: new Date(this.start).toUTCString(),
      },
      'recording status completed',
    );
  }

  /** The answering forward's leg fetches the Number's url (whisper) and may press the confirm key. */
  private async whisper(n: Node): Promise<boolean> {
    const leg = {
      ...this.base,
      CallSid: newSid('CA'),
      ParentCallSid: this.sid,
      From: this.call.from,
      To: n.text,
      Called: n.text,
      Direction: 'outbound-dial',
      CallStatus: 'in-progress',
    };
    let verbs = await this.post(n.attrs.url!, leg, `whisper leg ${n.text}`);
    for (let doc = 0; verbs && doc < 5; doc++) {
      const current: Node[] = verbs;
      verbs = null;
      for (const v of current) {
        if (v.name === 'Say' || v.name === 'Play') {
          this.note(`whisper ${v.name.toLowerCase()}`, v.text);
          continue;
        }
        if (v.name === 'Hangup' || v.name === 'Reject') {
          this.note('forward', `${n.text}: leg hung up`);
          return false;
        }
        if (v.name === 'Gather') {
          const prompt = v.children.map((c) => c.text).join(' ');
          for (const c of v.children) this.note(`whisper ${c.name.toLowerCase()}`, c.text);
          const key = this.call.confirm === false ? '' : (/press (\S+?) to accept/i.exec(prompt)?.[1] ?? '1');
          this.note('forward', key ? `${n.text} pressed ${key}` : `${n.text} pressed nothing`);
          if (!key && v.attrs.actionOnEmptyResult !== 'true') continue;
          verbs = await this.post(v.attrs.action!, { ...leg, Digits: key }, `confirm ${key || '(none)'}`);
          break;
        }
      }
      if (verbs === null) return true; // instructions ended: the leg is bridged
    }
    return true;
  }
}

/**
 * Places a simulated inbound call to a sandbox number and runs it to the end. `browser`: how
 * browser users answer `<Client>` legs (default: nobody answers).
 * @returns null when `to` is not a number the sandbox has sold.
 */
export async function simulateCall(ctx: AppContext, call: SimulatedCall, browser: BrowserLegs = NO_BROWSERS, speak?: Speak): Promise<CallResult | null> {
  const sold = await sandboxRepository.findActiveNumber(ctx.db, call.to);
  if (!sold) return null;
  const run = new CallRun(ctx, call, sold.voice_url, browser, speak);
  let status: string;
  try {
    status = await run.run();
  } catch (e) {
    run.log.push({ at: new Date().toISOString(), step: 'error', detail: String(e) });
    status = 'failed';
  }
  await sandboxRepository.insertCall(ctx.db, { sid: run.sid, from_number: call.from, to_number: call.to, status, log: run.log });
  return { sid: run.sid, status, log: run.log };
}

/**
 * Texts a sandbox number from an outside handset: posts the signed inbound messaging webhook and
 * delivers any `<Message>` reply of the answer back to the handset.
 * @returns null when `to` is not a number the sandbox has sold.
 */
export async function simulateMessage(ctx: AppContext, msg: { from: string; to: string; body: string; media_urls?: string[] }) {
  const sold = await sandboxRepository.findActiveNumber(ctx.db, msg.to);
  if (!sold) return null;
  const media = msg.media_urls ?? [];
  const sid = newSid(media.length ? 'MM' : 'SM');
  await sandboxRepository.insertMessage(ctx.db, {
    sid,
    direction: 'inbound',
    from_number: msg.from,
    to_number: msg.to,
    body: msg.body,
    media,
    status: 'received',
  });
  const fromArea = areaCodeOf(msg.from);
  const params: Record<string, string> = {
    MessageSid: sid,
    SmsSid: sid,
    SmsMessageSid: sid,
    AccountSid: ctx.config.twilioAccountSid,
    MessagingServiceSid: '',
    From: msg.from,
    To: msg.to,
    Body: msg.body,
    NumMedia: String(media.length),
    NumSegments: '1',
    SmsStatus: 'received',
    FromCountry: 'US',
    FromState: (fromArea && AREA_CODES[fromArea]?.state) || '',
    FromCity: (fromArea && AREA_CODES[fromArea]?.city) || '',
    ApiVersion: '2010-04-01',
  };
  media.forEach((url, i) => {
    params[`MediaUrl${i}`] = url;
    params[`MediaContentType${i}`] = contentTypeOf(url);
  });
  const res = await postSigned(ctx.config, sold.sms_url, params);
  if (res.status === 200) {
    for (const reply of parseTwiml(res.body).filter((n) => n.name === 'Message')) {
      const body = reply.children.find((c) => c.name === 'Body')?.text ?? reply.text;
      await sandboxRepository.insertMessage(ctx.db, {
        sid: newSid('SM'),
        direction: 'outbound',
        from_number: msg.to,
        to_number: msg.from,
        body,
        media: [],
        status: 'delivered',
      });
    }
  }
  return { row: (await sandboxRepository.findMessage(ctx.db, sid))!, webhookStatus: res.status };
}

/** The messages a simulated handset (E.164 `number`) exchanged, oldest first. */
export async function handsetMessages(ctx: AppContext, number: string): Promise<SandboxMessageRow[]> {
  return sandboxRepository.handsetMessages(ctx.db, number);
}

function contentTypeOf(url: string): string {
  const ext = /\.([a-z0-9]+)(?:\?|$)/i.exec(url)?.[1]?.toLowerCase();
  return (
    (
      {
        jpg: 'image/jpeg',
        jpeg: 'image/jpeg',
        png: 'image/png',
        gif: 'image/gif',
        mp4: 'video/mp4',
        pdf: 'application/pdf',
        wav: 'audio/wav',
        mp3: 'audio/mpeg',
      } as Record<string, string>
    )[ext ?? ''] ?? 'application/octet-stream'
  );
}
