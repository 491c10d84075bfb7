/**
 * The sandbox's outgoing calls from the browser (docs/calling.md "Sandbox"): what Twilio does when
 * its Voice SDK connects a call, played by the simulated carrier.
 *
 * 1. The sandbox softphone connects with the token of `POST .../outbound-calls` (or
 *    `POST /api/v1/calls/token`): `connectSoftphoneCall` checks the token (signed, outgoing grant,
 *    not expired), posts the signed `voice.client` webhook with the token's params (`From`
 *    `client:user_{id}`, `To`, `call_id`, `number_id`) and reads the answer's `<Dial>`.
 * 2. The `<Number>` rings a simulated outside handset: a `sandbox_handset_calls` row in state
 *    `ringing` showing the Dial's `callerId`. The Phone simulator lists it; a person answers or
 *    rejects it there (`answerHandsetCall`, `rejectHandsetCall`), or the Dial's timeout passes.
 * 3. Talking: hold (`setHold`, with the hold music the product asked for), keypad tones
 *    (`addDigits`), a blind transfer (`transferLeg`) and the lines the Phone simulator's person
 *    types for the outside party and the agent (`sayLine`) change the row; the call ends when the
 *    handset hangs up (`hangupHandsetCall`) or the product hangs up the browser leg (`endLeg`).
 * 4. The Dial's action gets `DialCallStatus` completed (talk time in `DialCallDuration`),
 *    busy (rejected), no-answer (timeout) or canceled (the browser hung up while ringing).
 * 5. A `<Dial record="record-from-answer-dual">` of an answered leg is recorded like Twilio does:
 *    a two-channel WAV of the talk time (the browser leg, the agent, on channel 0, the handset on
 *    channel 1) with the typed lines spoken at the times they were said (silence without lines),
 *    stored like a carrier's recording, then the `recordingStatusCallback` is posted after the
 *    Dial's action.
 *
 * The leg runs in the background of the request that connected it (real time, polling the row
 * every 300 ms and woken in-process, so a change made on another node counts too). Carrier
 * behaviour only: it imports no module; a transfer to an in-app user waits through `BrowserLegs`.
 */
import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import type { Row } from '../../platform/db/schema.js';
import { CARRIER_URL_TTL_MS } from '../../platform/blob/access.js';
import { recordConversation, type Speak } from './sandbox.recording.js';
import { newSid, postSigned } from './sandbox.http.js';
import { parseTwiml, type BrowserLegs } from './sandbox.simulator.js';
import { verifySandboxClientToken } from './sandbox.token.js';

export type HandsetCallRow = Row<'sandbox_handset_calls'>;

const signals = new EventEmitter();
signals.setMaxListeners(0);
const wake = (sid: string) => signals.emit(`leg:${sid}`);

/** Longest a talking leg lasts without anyone hanging up (ms). */
export const MAX_TALK_MS = 60 * 60_000;

/** SQL for `sandbox_handset_calls` (migration 0029), the sandbox carrier's table. */
export const handsetCallsRepository = {
  async insert(
    db: DbOrTx,
    row: { sid: string; parent_sid: string; call_ref: string | null; from_number: string; to_number: string; dial_action: string | null; timeout_s: number },
  ) {
    await db
      .insertInto('sandbox_handset_calls')
      .values({ ...row, state: 'ringing' })
      .execute();
  },
  async find(db: DbOrTx, sid: string): Promise<HandsetCallRow | undefined> {
    return db.selectFrom('sandbox_handset_calls').selectAll().where('sid', '=', sid).executeTakeFirst();
  },
  /** The live (not ended) leg dialed by browser leg `parentSid`. */
  async findLiveByParent(db: DbOrTx, parentSid: string): Promise<HandsetCallRow | undefined> {
    return db
      .selectFrom('sandbox_handset_calls')
      .selectAll()
      .where('parent_sid', '=', parentSid)
      .where('state', '<>', 'ended')
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
  },
  /** Legs to these handsets (or from these caller IDs), live first then the latest ended ones. */
  async list(db: DbOrTx, opts: { fromNumbers?: string[]; limit: number }): Promise<HandsetCallRow[]> {
    let q = db.selectFrom('sandbox_handset_calls').selectAll();
    if (opts.fromNumbers) {
      if (opts.fromNumbers.length === 0) return [];
      q = q.where('from_number', 'in', opts.fromNumbers);
    }
    return q
      .orderBy((eb) => eb.case().when('state', '=', 'ended').then(1).else(0).end())
      .orderBy('created_at', 'desc')
      .limit(opts.limit)
      .execute();
  },
  async update(db: DbOrTx, sid: string, states: string[], set: Partial<Omit<HandsetCallRow, 'sid' | 'lines'>>): Promise<HandsetCallRow | undefined> {
    return db.updateTable('sandbox_handset_calls').set(set).where('sid', '=', sid).where('state', 'in', states).returningAll().executeTakeFirst();
  },
  /**
   * Appends a line said on the answered leg `sid`, timed from its answer (s, two decimals), while
   * it has fewer than `max` lines. @returns the row, or undefined (not answered, or full).
   */
  async appendLine(db: DbOrTx, sid: string, line: { speaker: 'caller' | 'agent'; text: string }, max: number): Promise<HandsetCallRow | undefined> {
    return db
      .updateTable('sandbox_handset_calls')
      .set({
        lines: sql<string>`lines || jsonb_build_array(jsonb_build_object('speaker', ${line.speaker}::text, 'text', ${line.text}::text,
          'at', round(extract(epoch from (now() - coalesce(answered_at, now())))::numeric, 2)))`,
      })
      .where('sid', '=', sid)
      .where('state', '=', 'answered')
      .where(sql<boolean>`jsonb_array_length(lines) < ${max}`)
      .returningAll()
      .executeTakeFirst();
  },
  async appendDigits(db: DbOrTx, sid: string, digits: string): Promise<HandsetCallRow | undefined> {
    return db
      .updateTable('sandbox_handset_calls')
      .set({ digits: sql<string>`digits || ${digits}` })
      .where('sid', '=', sid)
      .where('state', '=', 'answered')
      .returningAll()
      .executeTakeFirst();
  },
};

/** Why a handset-call change was refused (the simulator answers 409/404 with it). */
export class HandsetCallStateError extends Error {}

/** The Phone simulator's person answers the ringing handset `sid`. @throws HandsetCallStateError when it no longer rings. */
export async function answerHandsetCall(ctx: AppContext, sid: string): Promise<HandsetCallRow> {
  const row = await handsetCallsRepository.update(ctx.db, sid, ['ringing'], { state: 'answered', answered_at: new Date() });
  if (!row) throw new HandsetCallStateError('This call is no longer ringing.');
  wake(sid);
  return row;
}

/** The Phone simulator's person declines the ringing handset `sid` (the Dial ends busy). @throws HandsetCallStateError */
export async function rejectHandsetCall(ctx: AppContext, sid: string): Promise<HandsetCallRow> {
  const row = await handsetCallsRepository.update(ctx.db, sid, ['ringing'], { state: 'ended', end_reason: 'rejected', ended_at: new Date() });
  if (!row) throw new HandsetCallStateError('This call is no longer ringing.');
  wake(sid);
  return row;
}

/** The Phone simulator's person hangs up the answered handset `sid`. @throws HandsetCallStateError */
export async function hangupHandsetCall(ctx: AppContext, sid: string): Promise<HandsetCallRow> {
  const row = await handsetCallsRepository.update(ctx.db, sid, ['answered'], { state: 'ended', end_reason: 'handset-hangup', ended_at: new Date() });
  if (!row) throw new HandsetCallStateError('This call is not in progress.');
  wake(sid);
  return row;
}

/**
 * The Phone simulator's person says `line` on the answered handset call `sid`: `caller` is the
 * outside party at the handset, `agent` the user in the browser (the sandbox has no microphone).
 * The line is timed from the answer and spoken into the call's recording (see the file's docstring).
 * @throws HandsetCallStateError when the call is not in progress or already has `max` lines.
 */
export async function sayLine(ctx: AppContext, sid: string, line: { speaker: 'caller' | 'agent'; text: string }, max: number): Promise<HandsetCallRow> {
  const row = await handsetCallsRepository.appendLine(ctx.db, sid, line, max);
  if (row) return row;
  const now = await handsetCallsRepository.find(ctx.db, sid);
  throw new HandsetCallStateError(now?.state === 'answered' ? `A call takes at most ${max} lines.` : 'This call is not in progress.');
}

/** The product ends browser leg `parentSid`: its handset leg ends too (canceled while ringing). Idempotent. */
export async function endLeg(db: DbOrTx, parentSid: string): Promise<void> {
  const row = await handsetCallsRepository.findLiveByParent(db, parentSid);
  if (!row) return;
  // A leg transferred to a number no longer talks to the browser: hanging the browser up does not end it.
  if (row.transferred_to && !row.transferred_to.startsWith('client:')) return;
  const reason = row.state === 'ringing' ? 'canceled' : 'agent-hangup';
  await handsetCallsRepository.update(db, row.sid, ['ringing', 'answered'], { state: 'ended', end_reason: reason, ended_at: new Date() });
  wake(row.sid);
}

/** The talking handset of browser leg `parentSid`, or null. */
async function talking(db: DbOrTx, parentSid: string): Promise<HandsetCallRow | null> {
  const row = await handsetCallsRepository.findLiveByParent(db, parentSid);
  return row && row.state === 'answered' ? row : null;
}

/**
 * Holds/resumes the handset of browser leg `parentSid`. While held it hears `musicUrl` (the
 * number's on-hold greeting) or, when null, the sandbox's default music.
 * @returns false when no call is in progress.
 */
export async function setHold(db: DbOrTx, parentSid: string, hold: boolean, musicUrl: string | null = null): Promise<boolean> {
  const row = await talking(db, parentSid);
  if (!row) return false;
  await handsetCallsRepository.update(db, row.sid, ['answered'], { on_hold: hold, hold_music_url: hold ? musicUrl : null });
  wake(row.sid);
  return true;
}

/** The handset of browser leg `parentSid` hears keypad tones `digits` (`w` pauses are not heard). @returns false when no call is in progress. */
export async function addDigits(db: DbOrTx, parentSid: string, digits: string): Promise<boolean> {
  const row = await talking(db, parentSid);
  if (!row) return false;
  await handsetCallsRepository.appendDigits(db, row.sid, digits.replace(/w/g, ''));
  wake(row.sid);
  return true;
}

/**
 * Blind transfer: the handset of browser leg `parentSid` leaves the browser and follows `twiml`
 * (a `<Dial>` of one `<Number>` or `<Client>`). @returns false when no call is in progress.
 */
export async function transferLeg(db: DbOrTx, parentSid: string, twiml: string): Promise<boolean> {
  const row = await talking(db, parentSid);
  if (!row) return false;
  const dial = parseTwiml(twiml).find((v) => v.name === 'Dial');
  const target = dial?.children.find((c) => c.name === 'Number' || c.name === 'Client');
  if (!target) return false;
  const to = target.name === 'Client' ? `client:${target.text}` : target.text;
  await handsetCallsRepository.update(db, row.sid, ['answered'], { transferred_to: to, on_hold: false });
  wake(row.sid);
  return true;
}

/** Waits until `check` answers non-null, re-checking on the leg's signal and every `pollMs`. */
async function waitFor<T>(sid: string, check: () => Promise<T | null>, timeoutMs: number, pollMs = 300): Promise<T | null> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== null) return v;
    const left = end - Date.now();
    if (left <= 0) return null;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(t);
        signals.off(`leg:${sid}`, done);
        resolve();
      };
      const t = setTimeout(done, Math.min(pollMs, left));
      signals.once(`leg:${sid}`, done);
    });
  }
}

/** The result of a softphone connect: the browser leg's SID and what the carrier did. */
export type SoftphoneConnect = { sid: string; status: 'ringing' | 'refused' };

/**
 * The sandbox softphone connects the call its `token` was issued for (the sandbox's Voice SDK
 * `device.connect`): posts `voice.client`, and when the answer dials a number, rings that handset
 * and runs the leg in the background (see the file's docstring). `browser`: how in-app users answer
 * a transfer to them; `speak`: the speech synthesizer the typed lines are spoken with into the
 * recording (none: a silent recording).
 * @returns null when the token is invalid, expired or has no outgoing grant.
 */
export async function connectSoftphoneCall(ctx: AppContext, token: string, browser: BrowserLegs, speak?: Speak): Promise<SoftphoneConnect | null> {
  const t = verifySandboxClientToken(ctx.config, token);
  if (!t || !t.grants.outgoing) return null;
  const sid = newSid('CA');
  const params: Record<string, string> = {
    ...t.grants.params,
    CallSid: sid,
    AccountSid: ctx.config.twilioAccountSid,
    From: `client:${t.sub}`,
    Caller: `client:${t.sub}`,
    To: t.grants.params.To ?? '',
    Called: '',
    Direction: 'inbound',
    CallStatus: 'ringing',
    ApiVersion: '2010-04-01',
  };
  const res = await postSigned(ctx.config, ctx.carrier.webhookUrl('voice.client'), params);
  const verbs = res.status === 200 ? parseTwiml(res.body) : [];
  const dial = verbs.find((v) => v.name === 'Dial');
  const number = dial?.children.find((c) => c.name === 'Number');
  if (!dial || !number) return { sid, status: 'refused' };
  const leg = newSid('CA');
  await handsetCallsRepository.insert(ctx.db, {
    sid: leg,
    parent_sid: sid,
    call_ref: t.grants.params.call_id ?? null,
    from_number: dial.attrs.callerId ?? '',
    to_number: number.text,
    dial_action: dial.attrs.action ?? null,
    timeout_s: Number(dial.attrs.timeout ?? 30),
  });
  const recordingCallback = dial.attrs.record?.startsWith('record-from-answer') ? (dial.attrs.recordingStatusCallback ?? null) : null;
  void runLeg(ctx, { parent: params, leg, browser, callId: Number(t.grants.params.call_id), recordingCallback, speak }).catch((e: unknown) =>
    ctx.log.error({ err: e, sid: leg }, 'sandbox handset leg failed'),
  );
  return { sid, status: 'ringing' };
}

/** The background life of one handset leg: ring, talk, transfer, then the Dial's action. */
async function runLeg(
  ctx: AppContext,
  run: { parent: Record<string, string>; leg: string; browser: BrowserLegs; callId: number; recordingCallback: string | null; speak?: Speak },
): Promise<void> {
  const first = (await handsetCallsRepository.find(ctx.db, run.leg))!;
  const answered = await waitFor(
    run.leg,
    async () => {
      const r = await handsetCallsRepository.find(ctx.db, run.leg);
      return r && r.state !== 'ringing' ? r : null;
    },
    first.timeout_s * 1000,
  );
  let dialStatus: string;
  let talkS = 0;
  if (!answered) {
    await handsetCallsRepository.update(ctx.db, run.leg, ['ringing'], { state: 'ended', end_reason: 'no-answer', ended_at: new Date() });
    dialStatus = 'no-answer';
  } else if (answered.state === 'ended') {
    dialStatus = answered.end_reason === 'rejected' ? 'busy' : 'canceled';
  } else {
    const t0 = Date.now();
    const ended = await waitFor(
      run.leg,
      async () => {
        const r = await handsetCallsRepository.find(ctx.db, run.leg);
        return r && (r.state === 'ended' || r.transferred_to) ? r : null;
      },
      MAX_TALK_MS,
    );
    if (ended?.transferred_to?.startsWith('client:')) {
      // Transferred to an in-app user: the handset waits for that user's answer, then talks until
      // either side hangs up (the user through in-app calling, checked every second).
      const r = await run.browser.waitForCallAnswer(run.callId, first.timeout_s * 1000);
      if (r.kind === 'answered') {
        const deadline = Date.now() + MAX_TALK_MS;
        while (Date.now() < deadline) {
          if (await run.browser.waitForHangup(run.callId, 1000)) break;
          if ((await handsetCallsRepository.find(ctx.db, run.leg))?.state === 'ended') break;
        }
      }
    } else if (ended?.transferred_to) {
      // Transferred to a number: the outside parties talk until the handset hangs up.
      await waitFor(run.leg, async () => ((await handsetCallsRepository.find(ctx.db, run.leg))?.state === 'ended' ? true : null), MAX_TALK_MS);
    }
    await handsetCallsRepository.update(ctx.db, run.leg, ['ringing', 'answered'], { state: 'ended', end_reason: 'completed', ended_at: new Date() });
    talkS = Math.round((Date.now() - t0) / 1000);
    dialStatus = 'completed';
  }
  if (first.dial_action) {
    await postSigned(ctx.config, first.dial_action, {
      ...run.parent,
      CallStatus: 'in-progress',
      DialCallStatus: dialStatus,
      DialCallSid: run.leg,
      DialCallDuration: String(talkS),
    });
  }
  if (dialStatus === 'completed' && run.recordingCallback) {
    const lines = (await handsetCallsRepository.find(ctx.db, run.leg))?.lines ?? [];
    await postLegRecording(ctx, run.parent, run.recordingCallback, talkS, lines, run.speak);
  }
}

/**
 * Stores the two-channel recording of a talked leg (`talkS` seconds; the agent on channel 0, the
 * handset on channel 1, `lines` spoken at their times) and posts its status callback (RecordingStatus completed).
 */
async function postLegRecording(
  ctx: AppContext,
  parent: Record<string, string>,
  callback: string,
  talkS: number,
  lines: HandsetCallRow['lines'],
  speak?: Speak,
): Promise<void> {
  const made = await recordConversation(lines, Math.max(1, talkS), speak, { agentFirst: true });
  const sid = newSid('RE');
  const key = `sandbox/recordings/${sid}.wav`;
  await ctx.blobs.put(key, made.wav);
  await postSigned(ctx.config, callback, {
    AccountSid: ctx.config.twilioAccountSid,
    CallSid: parent.CallSid ?? '',
    RecordingSid: sid,
    RecordingUrl: ctx.blobs.signedUrl(key, CARRIER_URL_TTL_MS),
    RecordingStatus: 'completed',
    RecordingDuration: String(made.durationS),
    RecordingChannels: '2',
    RecordingSource: 'DialVerb',
    RecordingStartTime: new Date(Date.now() - talkS * 1000).toUTCString(),
  });
}
