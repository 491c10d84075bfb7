/**
 * Calls (issue 2 "Calls and messages through the carrier port"; foundation §3 call status codes):
 * the voice-webhook use cases that store a call as it moves and answer with the call-flow
 * engine's steps, reading calls, the activity feed of calls/voicemails, and blocked callers
 * (spec 001 "Blocks").
 *
 * Status transitions (docs/telephony.md): 1 Started on arrival (13 Blocked when rejected);
 * 2 Extension Selected after a menu choice; 12 Connected when a Dial is answered; 4 Voicemail when
 * the recording arrives; 5 No Answer when no one answered and voicemail is off; 10 Missed when
 * the schedule is closed and voicemail is off; 3 Hangup when the caller hangs up while the call is
 * still 1 or 2.
 */
import { CALL_STATUS, EAV_ENTITY_TYPES, callStatusLabel, parsePhone, type RouteEntry } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import type { CallFlowStep } from '../../carriers/carrier.port.js';
import { FINAL_CALL_STATUS_WORDS, type VoiceEvent } from '../../carriers/carrier.events.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { EMAIL_URL_TTL_MS, ownerOfKey } from '../../platform/blob/access.js';
import { NotFoundError, fieldError, deniedAsNotFound } from '../../platform/http/errors.js';
import { AGENT_ROLES, assertCompanyAccess } from '../companies/companies.service.js';
import { contactIdForNumberSql, findContactByNumber, getContactsByIds } from '../contacts/contacts.service.js';
import { conversationIdOfCall } from '../conversations/conversations.service.js';
import { describeCallEvent, forwardOutcomes } from './calls.views.js';
import { getEavValues, setEavValues } from '../custom-fields/custom-fields.service.js';
import { findRoutingByE164Cached, findRoutingById, getCompanyNumber, getCompanyNumbers, takeRoundRobinCursor } from '../numbers/numbers.service.js';
import {
  afterRecordingSteps, clientIdentity, confirmSteps, decideAfterDial, decideInboundStep, decideMenuChoice, flowUrls, whisperSteps, type Decision, type RoutingNumber,
} from '../routing/routing.service.js';
import { flowGreetingsCached } from '../greetings/greetings.service.js';
import { callFlowSchedule } from '../schedules/schedules.service.js';
import { notesOf } from '../notes/notes.service.js';
import { activeInAppUserIds, endInAppRinging, ringInAppUsers } from '../in-app-calling/in-app-calling.service.js';
import type { Role } from '../companies/companies.service.js';
import { events as domainEvents } from '../../platform/events/index.js';
import { readCache } from '../../platform/db/read-cache.js';
import { GroupCommit } from '../../platform/db/group-commit.js';
import type { ReceiptRow } from '../../platform/http/webhook-receipts.repository.js';
import { callsRepository, type CallRow } from './calls.repository.js';
import { isPartyBlocked } from '../blocklist/blocklist.service.js';

export const FETCH_RECORDING_JOB = 'calls.fetch-recording';

/**
 * What a voice webhook answers, plus the live event to publish after commit (and `after`: more
 * live events, e.g. in-app ringing). `call`: the changed call's row as committed, when the webhook
 * has it (a new call), so `announceCallChanged` need not read it again.
 */
export type VoiceOutcome = { steps: CallFlowStep[]; changed?: { companyId: number; id: number; status: number }; after?: () => void; call?: CallRow };

/** A voice webhook as the carrier adapter parsed it (carriers/carrier.events.ts). */
type Params = VoiceEvent;

/** Publishes `call updated` on the company channel (call after commit). */
export function publishCallUpdated(ctx: AppContext, changed: { companyId: number; id: number; status: number } | undefined): void {
  if (changed) ctx.realtime.send(`company.${changed.companyId}`, 'call updated', { id: changed.id, status: changed.status });
}

async function setStatus(tx: DbOrTx, call: CallRow, status: number, detail: Record<string, unknown>, patch: Parameters<typeof callsRepository.update>[2] = {}): Promise<VoiceOutcome['changed']> {
  await callsRepository.update(tx, call.id, { status, ...patch });
  await callsRepository.insertEvent(tx, call.id, status, detail);
  return { companyId: call.company_id, id: call.id, status };
}

function urls(ctx: AppContext, sid: string) {
  return flowUrls(ctx.carrier, sid);
}

function entryOf(number: RoutingNumber, ext: number): RouteEntry | undefined {
  return number.routes.find((e) => e.extension === ext);
}

type StoredNumber = { id: number; company_id: number; number: string; routes: RouteEntry[]; schedule: RoutingNumber['schedule'] };

/**
 * The number's routing data with what the engine needs for this call (RoutingExtras): company
 * holidays, the manual override, greeting URLs, the caller's state, active in-app users, and —
 * when `roundRobinFor` is a round-robin entry about to ring — the cursor this call takes
 * (advancing the number's cursor for the next call). Holidays, override and greetings come
 * through their modules' short-lived caches (invalidated on write; one statement each on a miss,
 * run one after another on the transaction's connection).
 */
async function loadFlow(ctx: AppContext, tx: DbOrTx, number: StoredNumber, fromState: string | null, roundRobinFor?: RouteEntry): Promise<RoutingNumber> {
  const holdIds = number.routes.map((e) => e.onhold_music_id).filter((x): x is number => typeof x === 'number');
  const needsClients = number.routes.some((e) => e.type === 'in-app-calling');
  const { holidays, override } = await callFlowSchedule(ctx, number.company_id, number.id, tx);
  const greetings = await flowGreetingsCached(ctx, number, holdIds, tx);
  const clients = needsClients ? await activeInAppUserIds(ctx, number.company_id, tx) : [];
  const roundRobinCursor = roundRobinFor?.round_robin ? await takeRoundRobinCursor(ctx, number.id, tx) : undefined;
  return {
    ...number,
    extras: { holidays, override, greetingUrls: greetings.byKey, greetingUrlsById: greetings.byId, fromState, activeClients: clients.map(clientIdentity), roundRobinCursor },
  };
}

/** Applies the status a decision implies (when it implies one) and returns the steps. */
async function apply(ctx: AppContext, tx: DbOrTx, call: CallRow, d: Decision, detail: Record<string, unknown> = {}): Promise<VoiceOutcome> {
  if (d.outcome === 'no-answer') return { steps: d.steps, changed: await setStatus(tx, call, CALL_STATUS.NO_ANSWER, { ...detail, reason: 'no-answer' }) };
  if (d.outcome === 'closed') return { steps: d.steps, changed: await setStatus(tx, call, CALL_STATUS.MISSED, { ...detail, reason: 'closed' }) };
  if (d.outcome === 'dial') await callsRepository.insertEvent(tx, call.id, call.status, { ...detail, dialing: d.dialing });
  if (d.outcome === 'dial' && d.entry?.type === 'in-app-calling') return { steps: d.steps, after: await ringInAppUsers(ctx, tx, call, d.dialing ?? [], d.entry.timeout) };
  if (d.outcome === 'voicemail') await callsRepository.insertEvent(tx, call.id, call.status, { ...detail, voicemail: 'prompted' });
  return { steps: d.steps };
}

type CallEvent = { status: number; detail: Record<string, unknown> };

/**
 * The inbound call decided but not stored: the call row, its first events in order, the steps to
 * answer, and (in-app calling) whom to ring once the call is stored.
 */
export type InboundPlan = {
  row: Parameters<typeof callsRepository.insert>[1];
  events: CallEvent[];
  steps: CallFlowStep[];
  inApp?: { dialing: string[]; timeout: number };
};

/**
 * E.164 of numbers as the carrier sends them, memoized (libphonenumber is costly per call; issue 3
 * bench). A NANP number already in E.164 (`+1` and ten digits) is returned as it is without
 * parsing: parsing yields the same string when valid, and `raw` is kept when invalid.
 */
const e164Memo = new Map<string, string | null>();
const NANP_E164 = /^\+1\d{10}$/;
function e164(raw: string): string {
  if (NANP_E164.test(raw)) return raw;
  let v = e164Memo.get(raw);
  if (v === undefined) {
    v = parsePhone(raw);
    if (e164Memo.size >= 50_000) e164Memo.clear();
    e164Memo.set(raw, v);
  }
  return v ?? raw;
}

/**
 * Decides an inbound call from reads only, except that a round-robin entry about to ring takes
 * the number's cursor when `mayWrite` (else: null, the caller needs the transactional path, as it
 * does for in-app calling). undefined: reject (unknown `To`, no CallSid).
 */
async function planInbound(ctx: AppContext, db: DbOrTx, p: Params, now: Date, mayWrite: boolean): Promise<InboundPlan | undefined | null> {
  const number = await findRoutingByE164Cached(ctx, e164(p.to ?? ''), db);
  if (!number || !p.callSid) return undefined;
  const from = e164(p.from ?? '');
  const fromState = p.fromState ?? null;
  const blocked = await isPartyBlocked(ctx, number.company_id, number.id, from, db);
  const row = {
    company_id: number.company_id, number_id: number.id, carrier_sid: p.callSid, from_number: from, to_number: number.number,
    from_state: fromState, direction: 'inbound', status: blocked ? CALL_STATUS.BLOCKED : CALL_STATUS.STARTED,
    // The fast path (no transaction) leaves the contact to the group-commit insert (`storeInboundCall`).
    contact_id: mayWrite ? (await findContactByNumber(ctx, number.company_id, from, db))?.id ?? null : undefined,
  };
  const arrived: CallEvent = { status: row.status, detail: { from, to: number.number, from_state: fromState, from_city: p.fromCity ?? null } };
  if (blocked) return { row, events: [arrived], steps: [{ kind: 'reject', reason: 'rejected' }] };
  const only = number.routes.length === 1 ? number.routes[0] : undefined;
  if (only?.round_robin && !mayWrite) return null;
  const flow = await loadFlow(ctx, db, number, fromState, only);
  const d = decideInboundStep(flow, now, urls(ctx, p.callSid));
  const ends = d.outcome === 'no-answer' ? { status: CALL_STATUS.NO_ANSWER, reason: 'no-answer' } : d.outcome === 'closed' ? { status: CALL_STATUS.MISSED, reason: 'closed' } : undefined;
  const inApp = d.outcome === 'dial' && d.entry?.type === 'in-app-calling';
  if (inApp && !mayWrite) return null;
  const events: CallEvent[] = [arrived];
  if (ends) events.push({ status: ends.status, detail: { reason: ends.reason } });
  else if (d.outcome === 'dial' && !inApp) events.push({ status: row.status, detail: { dialing: d.dialing } });
  else if (d.outcome === 'voicemail') events.push({ status: row.status, detail: { voicemail: 'prompted' } });
  return { row: { ...row, status: ends?.status ?? row.status }, events, steps: d.steps, inApp: inApp ? { dialing: d.dialing ?? [], timeout: d.entry!.timeout } : undefined };
}

/**
 * POST /webhooks/twilio/voice: a call arrived. Unknown `To` → Reject; blocked caller → Reject
 * and status 13; otherwise the call is stored (status 1) and the engine answers. When the answer
 * ends the call (closed → 10 Missed, no one to ring → 5 No Answer) the call is stored with that
 * status and both events. The decision is made before the call is stored, so the call and its
 * events take one statement (the issue 3 bench); in-app ringing needs the stored call and follows.
 */
export async function routeInboundCall(ctx: AppContext, tx: DbOrTx, p: Params, now = new Date()): Promise<VoiceOutcome> {
  const plan = await planInbound(ctx, tx, p, now, true);
  if (!plan) return { steps: [{ kind: 'reject', reason: 'rejected' }] };
  const call = await insertCall(tx, plan.row, plan.events);
  const changed = { companyId: call.company_id, id: call.id, status: call.status };
  if (plan.inApp) {
    await callsRepository.insertEvent(tx, call.id, call.status, { dialing: plan.inApp.dialing });
    return { steps: plan.steps, changed, call, after: await ringInAppUsers(ctx, tx, call, plan.inApp.dialing, plan.inApp.timeout) };
  }
  return { steps: plan.steps, changed, call };
}

/**
 * The voice webhook's fast path (issue 3 bench): decides an inbound call from reads only (through
 * the pool, no transaction). undefined when the call needs `routeInboundCall` in a transaction:
 * unknown number or no CallSid (reject), a round-robin entry (takes the cursor), in-app calling
 * (rings users). Store the plan with `storeInboundCall`.
 */
export async function planInboundCall(ctx: AppContext, p: Params, now = new Date()): Promise<InboundPlan | undefined> {
  return (await planInbound(ctx, ctx.db, p, now, false)) ?? undefined;
}

type InboundStore = { receipt: ReceiptRow; row: InboundPlan['row']; events: CallEvent[] };
type InboundStored = { claimed: boolean; call?: CallRow };
const inboundStores = new WeakMap<AppContext, GroupCommit<InboundStore, InboundStored>>();
/**
 * The group commit of new inbound calls (issue 3 bench): up to 64 calls collected for at most
 * 2 ms are stored by one statement (callsRepository.insertManyWithEventsClaiming), up to 4
 * statements at once. A key repeated within a batch is claimed by its first delivery only; the
 * others answer as repeated deliveries do (the stored answer, no second call).
 */
function inboundStore(ctx: AppContext): GroupCommit<InboundStore, InboundStored> {
  let g = inboundStores.get(ctx);
  if (!g) {
    g = new GroupCommit<InboundStore, InboundStored>({
      maxWaitMs: 2, maxItems: 64, concurrency: 4, owner: ctx,
      run: async (items) => {
        const firstOf = new Map<string, number>();
        const unique: InboundStore[] = [];
        const slot = items.map((it) => {
          let at = firstOf.get(it.receipt.key);
          if (at === undefined) { firstOf.set(it.receipt.key, (at = unique.length)); unique.push(it); return at; }
          return -1;
        });
        const stored = await callsRepository.insertManyWithEventsClaiming(ctx.db, unique, contactIdForNumberSql);
        return slot.map((at) => (at < 0 ? { claimed: false } : stored[at]!));
      },
    });
    inboundStores.set(ctx, g);
  }
  return g;
}

/**
 * Stores a planned inbound call together with the webhook delivery's receipt `receipt` in ONE
 * statement, shared with the other new calls of the same ~2 ms (group commit, `inboundStore`);
 * resolves once that statement has committed. undefined when the delivery was already claimed
 * (nothing written). A call whose SID is already stored keeps its row; the events are added to it
 * (as `routeInboundCall` does).
 */
export async function storeInboundCall(ctx: AppContext, plan: InboundPlan, receipt: ReceiptRow): Promise<{ call: CallRow; changed: NonNullable<VoiceOutcome['changed']> } | undefined> {
  const r = await inboundStore(ctx).submit({ receipt, row: plan.row, events: plan.events });
  if (!r.claimed) return undefined;
  let call = r.call;
  if (!call) {
    call = await ctx.db.transaction().execute(async (tx) => {
      const contactId = plan.row.contact_id ?? (await findContactByNumber(ctx, plan.row.company_id, plan.row.from_number, tx))?.id ?? null;
      const c = await callsRepository.insert(tx, { ...plan.row, contact_id: contactId });
      for (const e of plan.events) await callsRepository.insertEvent(tx, c.id, e.status, e.detail);
      return c;
    });
  }
  return { call, changed: { companyId: call.company_id, id: call.id, status: call.status } };
}

/**
 * Stores a new call with its first events in one statement. A call whose SID is already stored
 * (a carrier quirk: the start webhook itself is deduplicated by its receipt) keeps its row; the
 * events are added to it.
 */
async function insertCall(tx: DbOrTx, row: Parameters<typeof callsRepository.insert>[1], events: CallEvent[]): Promise<CallRow> {
  const inserted = await callsRepository.insertWithEvents(tx, row, events);
  if (inserted) return inserted;
  const call = await callsRepository.insert(tx, row);
  for (const e of events) await callsRepository.insertEvent(tx, call.id, e.status, e.detail);
  return call;
}

async function callAndNumber(ctx: AppContext, tx: DbOrTx, sid: string | undefined, roundRobin?: (n: StoredNumber) => RouteEntry | undefined) {
  const call = sid ? await callsRepository.findBySidForUpdate(tx, sid) : undefined;
  const stored = call ? await findRoutingById(ctx, call.number_id, tx) : undefined;
  if (!call || !stored) return undefined;
  return { call, number: await loadFlow(ctx, tx, stored, call.from_state, roundRobin?.(stored)) };
}

const HANGUP: CallFlowStep[] = [{ kind: 'hangup' }];

/** POST /voice/gather?attempt=N: the caller's menu choice (`digits`). */
export async function handleMenuChoice(ctx: AppContext, tx: DbOrTx, p: Params, attempt: number, now = new Date()): Promise<VoiceOutcome> {
  const digits = (p.digits ?? '').trim();
  const found = await callAndNumber(ctx, tx, p.callSid, (n) => n.routes.find((e) => String(e.extension) === digits.replace(/#$/, '')));
  if (!found) return { steps: HANGUP };
  const { call, number } = found;
  const d = decideMenuChoice(number, digits, attempt, now, urls(ctx, call.carrier_sid));
  // An invalid or missing choice is recorded with what followed (`next`: replay, or the menu's fallback).
  if (d.menuNext) await callsRepository.insertEvent(tx, call.id, call.status, { digits, attempt, invalid: true, next: d.menuNext });
  if (d.entry) {
    const changed = await setStatus(tx, call, CALL_STATUS.EXTENSION_SELECTED, { extension: d.entry.extension, label: d.entry.label }, { extension: d.entry.extension });
    const out = await apply(ctx, tx, { ...call, status: CALL_STATUS.EXTENSION_SELECTED, extension: d.entry.extension }, d);
    return { steps: out.steps, changed: out.changed ?? changed, after: out.after };
  }
  return { steps: d.steps };
}

/** POST /voice/dial?ext=E&i=I&rr=C: the result of a Dial (`dialStatus`, `dialDurationS`); `rr` the call's round-robin cursor. */
export async function handleDialResult(ctx: AppContext, tx: DbOrTx, p: Params, ext: number, index: number, now = new Date(), rr?: number): Promise<VoiceOutcome> {
  const found = await callAndNumber(ctx, tx, p.callSid);
  if (!found) return { steps: HANGUP };
  const { call, number } = found;
  const entry = entryOf(number, ext);
  if (!entry) return { steps: HANGUP };
  const status = p.dialStatus ?? 'no-answer';
  const after = entry.type === 'in-app-calling' ? await endInAppRinging(ctx, tx, call.id, `dial-${status}`) : undefined;
  const d = decideAfterDial(number, entry, status, index, now, urls(ctx, call.carrier_sid), rr);
  if (d.outcome === 'connected') {
    const events = await callsRepository.events(tx, call.id);
    const confirmedBy = [...events].reverse().find((e) => typeof (e.detail as Record<string, unknown>).confirmed_by === 'string')?.detail.confirmed_by as string | undefined;
    const forwards = lastDialing(events) ?? entry.forwards.map((f) => f.number);
    const forwardedTo = confirmedBy ?? (forwards.length === 1 ? forwards[0] : forwards.join(', ')) ?? null;
    const changed = await setStatus(tx, call, CALL_STATUS.CONNECTED, { dial_status: status, forwarded_to: forwardedTo, dial_duration_s: p.dialDurationS }, { answered_at: new Date(), forwarded_to: forwardedTo });
    return { steps: d.steps, changed, after };
  }
  await callsRepository.insertEvent(tx, call.id, call.status, { dial_status: status, forward_index: index });
  return { ...(await apply(ctx, tx, call, d)), after };
}

/** The forwards (or in-app identities) of the call's last dial, from its history. */
function lastDialing(events: Array<{ detail: unknown }>): string[] | undefined {
  const e = [...events].reverse().find((x) => Array.isArray((x.detail as { dialing?: unknown }).dialing));
  return e ? ((e.detail as { dialing: string[] }).dialing) : undefined;
}

/** POST /voice/whisper?call=SID&ext=E: the answering forward's leg hears the whisper and the accept prompt. */
export async function whisperLeg(ctx: AppContext, tx: DbOrTx, parentSid: string, ext: number): Promise<VoiceOutcome> {
  const found = await callAndNumber(ctx, tx, parentSid);
  const entry = found ? entryOf(found.number, ext) : undefined;
  if (!found || !entry) return { steps: HANGUP };
  const confirmUrl = ctx.carrier.webhookUrl('voice.confirm', { call: parentSid, ext });
  return { steps: whisperSteps(entry, confirmUrl, found.number.extras?.greetingUrls?.[`${ext}:whisper`]) };
}

/** POST /voice/confirm?call=SID&ext=E: the forward's key; the confirm key connects, else the leg hangs up. */
export async function confirmLeg(ctx: AppContext, tx: DbOrTx, p: Params, parentSid: string, ext: number): Promise<VoiceOutcome> {
  const found = await callAndNumber(ctx, tx, parentSid);
  const entry = found ? entryOf(found.number, ext) : undefined;
  if (!found || !entry) return { steps: HANGUP };
  const r = confirmSteps(entry, (p.digits ?? '').trim());
  const forward = parsePhone(p.to ?? '') ?? p.to ?? '';
  await callsRepository.insertEvent(tx, found.call.id, found.call.status, r.accepted ? { confirmed_by: forward } : { declined_by: forward, digits: p.digits ?? '' });
  return { steps: r.steps };
}

/**
 * POST /voice/recording?ext=E: the voicemail was recorded. Stores the voicemail (recording_url =
 * the carrier's URL until the `calls.fetch-recording` job copies it into our blob store) and sets
 * status 4. A recording without URL or of 0 s is ignored.
 */
export async function handleRecording(ctx: AppContext, tx: DbOrTx, p: Params, ext?: number): Promise<VoiceOutcome> {
  const call = p.callSid ? await callsRepository.findBySidForUpdate(tx, p.callSid) : undefined;
  if (!call) return { steps: HANGUP };
  const duration = p.recordingDurationS;
  if (!p.recordingUrl || duration === 0) return { steps: afterRecordingSteps() };
  const vm = await callsRepository.insertVoicemail(tx, {
    company_id: call.company_id, call_id: call.id, number_id: call.number_id, recording_url: p.recordingUrl, recording_sid: p.recordingSid ?? null, duration_s: duration,
  });
  await ctx.queue.enqueue(FETCH_RECORDING_JOB, { voicemailId: vm.id }, { singletonKey: `vm:${vm.id}` }, tx);
  await sendVoicemailAlert(ctx, tx, call, vm.id, duration, ext);
  const changed = await setStatus(tx, call, CALL_STATUS.VOICEMAIL, { voicemail_id: vm.id, recording_sid: p.recordingSid ?? null, duration_s: duration });
  return { steps: afterRecordingSteps(), changed };
}

/**
 * E-mails the entry's `email_alert_address` (when set) about a new voicemail, through the mailer
 * in the webhook's transaction, with links to the call in the app and to the recording.
 */
async function sendVoicemailAlert(ctx: AppContext, tx: DbOrTx, call: CallRow, voicemailId: number, durationS: number, ext?: number): Promise<void> {
  const number = await findRoutingById(ctx, call.number_id, tx);
  const entry = number?.routes.find((e) => e.extension === (ext ?? call.extension)) ?? number?.routes[0];
  const to = entry?.email_alert_address.trim();
  if (!number || !entry || !to) return;
  const link = `${ctx.config.publicUrl}/calls/${call.id}`; // the web app's call detail route
  // A signed link (docs/operations.md "Files"): the mail's reader may not be signed in.
  const audio = ctx.blobs.signedUrl(recordingKey(ctx, call.company_id, voicemailId), EMAIL_URL_TTL_MS);
  const label = entry.label.trim() || `extension ${entry.extension}`;
  await ctx.mailer.send({
    to,
    subject: `New voicemail from ${call.from_number}`,
    text: `${call.from_number} left a ${durationS} s voicemail on ${number.number} (${label}).\n\nListen in the app: ${link}\nRecording: ${audio}\n`,
    html: `<p>${call.from_number} left a ${durationS} s voicemail on ${number.number} (${escapeHtml(label)}).</p><p><a href="${link}">Listen in the app</a></p>`,
  }, tx);
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Blob key of a voicemail's recording: recomputable from its id, unguessable without the server secret. */
function recordingKey(ctx: AppContext, companyId: number, voicemailId: number): string {
  return ctx.blobs.derivedKey(companyId, 'recordings', String(voicemailId), '.wav');
}

/** POST /voice/status: the call ended. Stores ended_at and duration; 1/2 → 3 Hangup. */
export async function handleCallStatus(ctx: AppContext, tx: DbOrTx, p: Params): Promise<VoiceOutcome> {
  const call = p.callSid ? await callsRepository.findBySidForUpdate(tx, p.callSid) : undefined;
  if (!call) return { steps: [] };
  const final = p.callStatus !== undefined && FINAL_CALL_STATUS_WORDS.includes(p.callStatus);
  if (!final) return { steps: [] };
  const patch = { ended_at: new Date(), duration_s: p.callDurationS };
  const after = await endInAppRinging(ctx, tx, call.id, 'call-ended');
  if (call.status === CALL_STATUS.STARTED || call.status === CALL_STATUS.EXTENSION_SELECTED) {
    return { steps: [], changed: await setStatus(tx, call, CALL_STATUS.HANGUP, { call_status: p.callStatus, duration_s: patch.duration_s }, patch), after };
  }
  await callsRepository.update(tx, call.id, patch);
  await callsRepository.insertEvent(tx, call.id, call.status, { call_status: p.callStatus, duration_s: patch.duration_s });
  return { steps: [], changed: { companyId: call.company_id, id: call.id, status: call.status }, after };
}

/**
 * For in-app calling: `userId` answered the ringing call `callId` in the browser (the in-app
 * calling module has already claimed the answer atomically): status 12 Connected, answered_at,
 * forwarded_to = `identity` (`user_{id}`), and an event `{answered_by, confirmed_by: identity}` so
 * the Dial's later `completed` result keeps that forward. Returns the change to publish after commit.
 */
export async function markAnsweredInApp(ctx: AppContext, tx: DbOrTx, callId: number, userId: number, identity: string): Promise<{ companyId: number; id: number; status: number } | undefined> {
  const call = await callsRepository.find(tx, callId);
  if (!call) return undefined;
  return setStatus(tx, call, CALL_STATUS.CONNECTED, { answered_by: userId, confirmed_by: identity, via: 'in-app' }, { answered_at: new Date(), forwarded_to: identity });
}

/**
 * For in-app calling: stores a call placed from the browser (`POST /api/v1/calls/token`) as an
 * outbound call (status 1 Started) of the company's number. `carrierSid` is the carrier's SID or a
 * placeholder until the carrier reports it.
 */
export async function recordOutboundCall(ctx: AppContext, tx: DbOrTx, input: { companyId: number; numberId: number; carrierSid: string; from: string; to: string; userId: number }): Promise<CallRow> {
  const call = await callsRepository.insert(tx, {
    company_id: input.companyId, number_id: input.numberId, carrier_sid: input.carrierSid, from_number: input.from, to_number: input.to,
    from_state: null, direction: 'outbound', status: CALL_STATUS.STARTED, contact_id: (await findContactByNumber(ctx, input.companyId, input.to, tx))?.id ?? null,
  });
  await callsRepository.insertEvent(tx, call.id, call.status, { placed_by: input.userId, via: 'in-app', to: input.to });
  return call;
}

/**
 * Job `calls.fetch-recording`: copies a voicemail's recording from the carrier into the blob store
 * (`recordingKey`) and points `recording_url` at it. Idempotent: a URL already ours is kept.
 */
export async function fetchRecording(ctx: AppContext, voicemailId: number): Promise<void> {
  const vm = await callsRepository.findVoicemail(ctx.db, voicemailId);
  if (!vm) return;
  const current = ctx.blobs.keyOf(vm.recording_url);
  if (current && ownerOfKey(current) === vm.company_id) return;
  const key = recordingKey(ctx, vm.company_id, vm.id);
  const ours = ctx.blobs.url(key);
  const { data } = await ctx.carrier.fetchRecording(vm.recording_url);
  await ctx.blobs.put(key, data);
  await callsRepository.setVoicemailUrl(ctx.db, vm.id, ours);
  publishCallUpdated(ctx, { companyId: vm.company_id, id: vm.call_id, status: CALL_STATUS.VOICEMAIL });
}

// ---------------------------------------------------------------- reading calls

const iso = (d: Date | null) => (d ? d.toISOString() : null);

async function callForUser(ctx: AppContext, userId: number, id: number, roles?: Role[]): Promise<CallRow> {
  const call = await callsRepository.find(ctx.db, id);
  if (!call) throw new NotFoundError('Call');
  await deniedAsNotFound(assertCompanyAccess(ctx, userId, call.company_id, roles), 'Call');
  return call;
}

/** For the notes module: the company of a call the user may see (`roles`). @throws NotFoundError */
export async function callCompanyForUser(ctx: AppContext, userId: number, callId: number, roles?: Role[]): Promise<number> {
  return (await callForUser(ctx, userId, callId, roles)).company_id;
}

/**
 * GET /api/calls/{id}: the call with status label, history, voicemail, tags, note (the latest),
 * notes, qualification and eavAttributeValues (spec 001 "Call"). @throws NotFoundError
 */
export async function getCall(ctx: AppContext, userId: number, id: number) {
  const call = await callForUser(ctx, userId, id);
  const party = call.direction === 'outbound' ? call.to_number : call.from_number;
  const [events, vm, tags, notes, eav, contact, numbers, conversationId, blocked] = await Promise.all([
    callsRepository.events(ctx.db, call.id), callsRepository.voicemailOfCall(ctx.db, call.id), callsRepository.tagsOfCall(ctx.db, call.id),
    notesOf(ctx, call.company_id, 'call', call.id), getEavValues(ctx, EAV_ENTITY_TYPES.Call, call.id),
    knownParty(ctx, call.company_id, call.contact_id, party), getCompanyNumbers(ctx, call.company_id, [call.number_id]),
    conversationIdOfCall(ctx, call.id), isPartyBlocked(ctx, call.company_id, call.number_id, party),
  ]);
  return {
    contact, number_label: numbers[0]?.label ?? '', conversation_id: conversationId, caller_blocked: blocked,
    forwards: forwardOutcomes(events, call.ended_at !== null || call.status === CALL_STATUS.VOICEMAIL),
    isInbound: call.direction !== 'outbound', tags, note: notes.at(-1) ?? null, notes, qualification: call.qualification,
    eavAttributeValues: eav,
    id: call.id, company_id: call.company_id, number_id: call.number_id, carrier_sid: call.carrier_sid, from: call.from_number, to: call.to_number,
    from_state: call.from_state, direction: call.direction, status: call.status, status_label: callStatusLabel(call.status), extension: call.extension,
    forwarded_to: call.forwarded_to, duration_s: call.duration_s, contact_id: call.contact_id, started_at: call.started_at.toISOString(),
    answered_at: iso(call.answered_at), ended_at: iso(call.ended_at),
    history: events.map((e) => ({ id: e.id, status: e.status, status_label: callStatusLabel(e.status), detail: e.detail, created_at: e.created_at.toISOString(), ...describeCallEvent(e.status, e.detail as Record<string, unknown>) })),
    voicemail: vm ? { id: vm.id, recording_url: vm.recording_url, duration_s: vm.duration_s, is_read: vm.is_read, created_at: vm.created_at.toISOString() } : null,
  };
}

/**
 * The outside parties' contacts `{id, name}`, in input order: the contact a call was matched to,
 * else the company's contact with that number now (a contact created after the call), else null.
 * One statement for the ids; the number lookups made together share one statement.
 */
export async function knownParties(ctx: AppContext, companyId: number, list: Array<{ contactId: number | null; party: string }>): Promise<Array<{ id: number; name: string } | null>> {
  const byId = await getContactsByIds(ctx, companyId, list.map((x) => x.contactId).filter((x): x is number => x !== null));
  const found = await Promise.all(list.map(async (x) => (x.contactId !== null ? byId.get(x.contactId) : await findContactByNumber(ctx, companyId, x.party))));
  return found.map((c) => (c ? { id: c.id, name: c.name } : null));
}
async function knownParty(ctx: AppContext, companyId: number, contactId: number | null, party: string): Promise<{ id: number; name: string } | null> {
  return (await knownParties(ctx, companyId, [{ contactId, party }]))[0] ?? null;
}

/** Moved to the blocklist module; kept for importers not yet switched (conversations, messaging). */
export { isPartyBlocked } from '../blocklist/blocklist.service.js';

export type CallActivity = { id: number; kind: 'call' | 'voicemail'; created_at: Date; number_id: number; number: string; number_label: string; from: string; to: string; direction: 'inbound' | 'outbound'; status: number; status_label: string; duration_s: number; extension: number | null; forwarded_to: string | null; voicemail: null | { id: number; recording_url: string; duration_s: number; is_read: boolean }; contact_id: number | null };

/**
 * The company's calls for the Activity feed, newest first. A call with a voicemail is kind
 * 'voicemail'. `calls=false` keeps only voicemail calls; `voicemails=false` only calls without one.
 * The caller checks company access.
 */
export async function listCallActivity(ctx: AppContext, companyId: number, opts: { limit: number; offset: number; calls: boolean; voicemails: boolean }): Promise<{ items: CallActivity[]; total: number }> {
  const { rows, total } = await callsRepository.activity(ctx.db, companyId, opts);
  return {
    total,
    items: rows.map((r) => ({
      id: r.id, kind: r.vm_id ? 'voicemail' : 'call', created_at: r.started_at, number_id: r.number_id, number: r.business_number, number_label: r.number_label,
      from: r.from_number, to: r.to_number, direction: r.direction === 'outbound' ? 'outbound' : 'inbound', status: r.status,
      status_label: callStatusLabel(r.status), duration_s: r.duration_s, extension: r.extension, forwarded_to: r.forwarded_to,
      voicemail: r.vm_id ? { id: r.vm_id, recording_url: r.vm_url!, duration_s: r.vm_duration!, is_read: r.vm_read! } : null,
      contact_id: r.contact_id,
    })),
  };
}

// ---------------------------------------------------------------- tags and qualification

/** Cleans tag names: trimmed, distinct case-insensitively, non-empty. */
function tagNames(names: string[]): string[] {
  const seen = new Set<string>();
  return names.map((n) => n.trim()).filter((n) => n && !seen.has(n.toLowerCase()) && seen.add(n.toLowerCase()));
}

/** POST /api/calls/{id}/tags/tags {tags}: adds company tags (created when new) to the call; answers the call's tags. */
export async function addCallTags(ctx: AppContext, userId: number, id: number, names: string[]) {
  const call = await callForUser(ctx, userId, id, AGENT_ROLES);
  await ctx.db.transaction().execute(async (tx) => {
    const tags = await callsRepository.ensureTags(tx, call.company_id, tagNames(names));
    await callsRepository.addCallTags(tx, call.id, tags.map((t) => t.id));
  });
  publishCallUpdated(ctx, { companyId: call.company_id, id: call.id, status: call.status });
  return { data: await callsRepository.tagsOfCall(ctx.db, call.id) };
}

/** DELETE /api/calls/{id}/tags/tags {tags}: removes those tags from the call (the company tags stay). */
export async function removeCallTags(ctx: AppContext, userId: number, id: number, names: string[]) {
  const call = await callForUser(ctx, userId, id, AGENT_ROLES);
  await callsRepository.removeCallTags(ctx.db, call.id, await callsRepository.findTagsByName(ctx.db, call.company_id, tagNames(names)));
  publishCallUpdated(ctx, { companyId: call.company_id, id: call.id, status: call.status });
  return { data: await callsRepository.tagsOfCall(ctx.db, call.id) };
}

/**
 * PATCH /api/calls/{id} {qualification?: 1|2|3|null, eavAttributeValues?: [{attribute_id, value}]}:
 * answers the updated call (the web app applies it optimistically and undoes it on failure with
 * FAILED_TO_UPDATE_CALL). Custom-field values (entity type Call 6) go to the shared EAV store; only
 * the listed attributes change, null clears one.
 * @throws NotFoundError 404, ValidationError 422 (`eavAttributeValues.{i}.attribute_id|value`).
 */
export async function patchCall(ctx: AppContext, userId: number, id: number, input: { qualification?: 1 | 2 | 3 | null; eavAttributeValues?: Array<{ attribute_id: number; value: unknown }> }) {
  const call = await callForUser(ctx, userId, id, AGENT_ROLES);
  const patch: Parameters<typeof callsRepository.update>[2] = {};
  if (input.qualification !== undefined) patch.qualification = input.qualification;
  await ctx.db.transaction().execute(async (tx) => {
    if (Object.keys(patch).length) await callsRepository.update(tx, call.id, patch);
    await setEavValues(ctx, EAV_ENTITY_TYPES.Call, call.id, call.company_id, input.eavAttributeValues ?? [], tx);
  });
  publishCallUpdated(ctx, { companyId: call.company_id, id: call.id, status: call.status });
  return getCall(ctx, userId, id);
}

// ---------------------------------------------------------------- voicemails

type VoicemailWithCall = NonNullable<Awaited<ReturnType<typeof callsRepository.voicemailWithCall>>>;

function voicemailDto(v: VoicemailWithCall, contact: { id: number; name: string } | null = null) {
  return {
    id: v.id, call_id: v.call_id, number_id: v.number_id, from: v.from_number, to: v.to_number, recording_url: v.recording_url, duration_s: v.duration_s, is_read: v.is_read, created_at: v.created_at.toISOString(),
    contact, number_label: v.number_label ?? '',
  };
}

async function voicemailForUser(ctx: AppContext, userId: number, id: number): Promise<VoicemailWithCall> {
  const v = await callsRepository.voicemailWithCall(ctx.db, id);
  if (!v) throw new NotFoundError('Voicemail');
  await deniedAsNotFound(assertCompanyAccess(ctx, userId, v.company_id, AGENT_ROLES), 'Voicemail');
  return v;
}

/** GET /api/voicemails?company_id&page&per_page: newest first, with paging meta. @throws 403 */
export async function listVoicemails(ctx: AppContext, userId: number, companyId: number, page: number, perPage: number) {
  await assertCompanyAccess(ctx, userId, companyId);
  const { rows, total } = await callsRepository.listVoicemails(ctx.db, companyId, perPage, (page - 1) * perPage);
  const contacts = await knownParties(ctx, companyId, rows.map((r) => ({ contactId: r.contact_id, party: r.from_number })));
  return { data: rows.map((r, i) => voicemailDto(r, contacts[i])), meta: { current_page: page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) } };
}

/** PUT /api/voicemails/{id}/read and /unread. @throws NotFoundError */
export async function markVoicemail(ctx: AppContext, userId: number, id: number, isRead: boolean) {
  const v = await voicemailForUser(ctx, userId, id);
  await callsRepository.setVoicemailRead(ctx.db, v.id, isRead);
  publishCallUpdated(ctx, { companyId: v.company_id, id: v.call_id, status: CALL_STATUS.VOICEMAIL });
  return { message: isRead ? 'Voicemail marked as read' : 'Voicemail marked as unread', data: voicemailDto({ ...v, is_read: isRead }, await knownParty(ctx, v.company_id, v.contact_id, v.from_number)) };
}

/** DELETE /api/voicemails/{id}: removes the voicemail and its recording blob (the call stays). */
export async function deleteVoicemail(ctx: AppContext, userId: number, id: number) {
  const v = await voicemailForUser(ctx, userId, id);
  await callsRepository.deleteVoicemail(ctx.db, v.id);
  // The stored URL names the blob (also for recordings kept under an older key).
  const key = ctx.blobs.keyOf(v.recording_url);
  if (key && ownerOfKey(key) === v.company_id) await ctx.blobs.delete(key);
  publishCallUpdated(ctx, { companyId: v.company_id, id: v.call_id, status: CALL_STATUS.VOICEMAIL });
  return { message: 'Voicemail deleted successfully' };
}

/**
 * After commit: announces the call's current state as the domain event `call.changed`, so other
 * modules (the inbox thread) can reflect it without the calls module knowing them.
 */
export async function announceCallChanged(ctx: AppContext, changed: VoiceOutcome['changed'], known?: CallRow): Promise<void> {
  // A call the webhook has just stored (`known`, as committed) has no voicemail yet: no reads needed.
  const fresh = known && changed && known.id === changed.id && known.status === changed.status;
  const call = fresh ? known : changed ? await callsRepository.find(ctx.db, changed.id) : undefined;
  if (!call) return;
  const vm = fresh ? undefined : await callsRepository.voicemailOfCall(ctx.db, call.id);
  await domainEvents.emitAfterCommit(ctx, 'call.changed', {
    callId: call.id, companyId: call.company_id, numberId: call.number_id,
    from: call.direction === 'outbound' ? call.to_number : call.from_number,
    status: call.status, direction: call.direction === 'outbound' ? 'outbound' : 'inbound',
    // A voicemail's length is its recording's (as in Activity and Voicemail), not the call's.
    voicemailId: vm?.id ?? null, durationS: vm ? vm.duration_s : call.duration_s, startedAt: call.started_at, contactId: call.contact_id,
  });
}

/**
 * A call placed from the browser (in-app calling, outbound): the carrier's first webhook for it.
 * Binds the carrier's CallSid to our call row and answers with a Dial of the destination from the
 * company number (`callerId`), whose result comes back to the carrier's `voice.client.dial` webhook.
 * @returns null when the call is unknown, not outbound, or already bound to a carrier call
 * (`tokenSid` is the SID recorded when the token was issued).
 */
export async function connectOutboundCall(ctx: AppContext, tx: DbOrTx, input: { callId: number; carrierSid: string; userId: number; tokenSid: string }): Promise<VoiceOutcome | null> {
  const call = await callsRepository.find(tx, input.callId);
  if (!call || call.direction !== 'outbound' || call.status !== CALL_STATUS.STARTED || call.carrier_sid !== input.tokenSid) return null;
  await callsRepository.update(tx, call.id, { carrier_sid: input.carrierSid });
  await callsRepository.insertEvent(tx, call.id, CALL_STATUS.STARTED, { carrier_sid: input.carrierSid, placed_by: input.userId });
  const base = ctx.carrier.webhookUrl('voice.client.dial', { call: call.id });
  return {
    steps: [{ kind: 'dial', numbers: [{ number: call.to_number }], timeoutS: 30, action: base, callerId: call.from_number }],
    changed: { companyId: call.company_id, id: call.id, status: call.status },
  };
}

/**
 * The Dial result of a browser-placed call: completed → 12 Connected (answered, with its
 * duration), anything else → 5 No Answer; then the call ends.
 */
export async function finishOutboundCall(ctx: AppContext, tx: DbOrTx, input: { callId: number; dialStatus: string; durationS: number }): Promise<VoiceOutcome> {
  const call = await callsRepository.find(tx, input.callId);
  if (!call || call.direction !== 'outbound') return { steps: [{ kind: 'hangup' }] };
  const answered = input.dialStatus === 'completed' || input.dialStatus === 'answered';
  const status = answered ? CALL_STATUS.CONNECTED : CALL_STATUS.NO_ANSWER;
  const now = new Date();
  const changed = await setStatus(tx, call, status, { dial_status: input.dialStatus }, {
    duration_s: input.durationS, ended_at: now, ...(answered ? { answered_at: new Date(now.getTime() - input.durationS * 1000), forwarded_to: call.to_number } : {}),
  });
  return { steps: [{ kind: 'hangup' }], changed };
}
