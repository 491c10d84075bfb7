/**
 * The call flow (spec 001 §7 "Calls"; foundation §3 call status codes; docs/telephony.md "Call
 * flow"): the voice-webhook use cases that store an inbound call as it moves and answer with the
 * call-flow engine's steps (routing module). Each runs inside the webhook's transaction (`tx`,
 * `handleOnce`) and returns a `VoiceOutcome` to announce after commit (`call-changes.ts`).
 *
 * Status transitions (docs/telephony.md): 1 Started on arrival (13 Blocked when rejected);
 * 2 Extension Selected after a menu choice; 12 Connected when a Dial is answered; 4 Voicemail when
 * the recording arrives; 5 No Answer when no one answered and voicemail is off; 10 Missed when
 * the schedule is closed and voicemail is off; 3 Hangup when the caller hangs up while the call is
 * still 1 or 2.
 *
 * A new inbound call is decided in one of two ways: `planInboundCall` from reads only (the fast
 * path, stored by group commit in `call-batching.ts`), or `routeInboundCall` inside a transaction
 * (round robin takes the number's cursor, in-app calling rings users, rejects).
 */
import { CALL_STATUS, parsePhone, type RouteEntry } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import type { CallFlowStep } from '../../carriers/carrier.port.js';
import { FINAL_CALL_STATUS_WORDS, type VoiceEvent } from '../../carriers/carrier.events.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { isPartyBlocked } from '../blocklist/blocklist.service.js';
import { findContactByNumber } from '../contacts/contacts.service.js';
import { flowGreetingsCached } from '../greetings/greetings.service.js';
import { activeInAppUserIds, endInAppRinging, ringInAppUsers } from '../in-app-calling/in-app-calling.service.js';
import { findRoutingByE164Cached, findRoutingById, takeRoundRobinCursor } from '../numbers/numbers.service.js';
import { OUT_OF_SERVICE_TEXT, isCompanyInService } from '../numbers/service-state.js';
import {
  afterRecordingSteps,
  clientIdentity,
  confirmSteps,
  decideAfterDial,
  decideAfterTransfer,
  decideInboundStep,
  decideMenuChoice,
  flowUrls,
  whisperSteps,
  type Decision,
  type RoutingNumber,
} from '../routing/routing.service.js';
import { callFlowSchedule } from '../schedules/schedules.service.js';
import type { CallChange, VoiceOutcome } from './call-changes.js';
import { callsRepository, type CallRow } from './calls.repository.js';
import { storeVoicemail } from './voicemails.js';
import { withRecording } from './recordings.js';

/** A voice webhook as the carrier adapter parsed it (carriers/carrier.events.ts). */
type Params = VoiceEvent;

/** Sets the call's status with its history event (and more columns in `patch`); returns the change to announce. */
export async function setCallStatus(
  tx: DbOrTx,
  call: CallRow,
  status: number,
  detail: Record<string, unknown>,
  patch: Parameters<typeof callsRepository.update>[2] = {},
): Promise<CallChange> {
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
  const clients = needsClients ? await activeInAppUserIds(ctx, number.company_id, tx, number.id) : [];
  const roundRobinCursor = roundRobinFor?.round_robin ? await takeRoundRobinCursor(ctx, number.id, tx) : undefined;
  return {
    ...number,
    extras: {
      holidays,
      override,
      greetingUrls: greetings.byKey,
      greetingUrlsById: greetings.byId,
      fromState,
      activeClients: clients.map(clientIdentity),
      roundRobinCursor,
    },
  };
}

/** Applies the status a decision implies (when it implies one) and returns the steps. */
async function apply(ctx: AppContext, tx: DbOrTx, call: CallRow, d: Decision, detail: Record<string, unknown> = {}): Promise<VoiceOutcome> {
  if (d.outcome === 'no-answer') return { steps: d.steps, changed: await setCallStatus(tx, call, CALL_STATUS.NO_ANSWER, { ...detail, reason: 'no-answer' }) };
  if (d.outcome === 'closed') return { steps: d.steps, changed: await setCallStatus(tx, call, CALL_STATUS.MISSED, { ...detail, reason: 'closed' }) };
  if (d.outcome === 'dial') await callsRepository.insertEvent(tx, call.id, call.status, { ...detail, dialing: d.dialing });
  if (d.outcome === 'dial' && d.entry?.type === 'in-app-calling')
    return { steps: d.steps, after: await ringInAppUsers(ctx, tx, call, d.dialing ?? [], d.entry.timeout) };
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
 * E.164 of numbers as the carrier sends them, memoized (libphonenumber is costly per call;
 * docs/architecture.md "The voice webhook's hot path"). A NANP number already in E.164 (`+1` and ten digits) is returned as it is without
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

/** An inbound call's number, caller and first event, before the engine decides (undefined: an unknown called number or no call SID). */
type InboundStart = {
  number: NonNullable<Awaited<ReturnType<typeof findRoutingByE164Cached>>>;
  callSid: string;
  fromState: string | null;
  blocked: boolean;
  /** The number's account is parked or deactivated (numbers/service-state.ts): the caller hears a message and the call ends. */
  outOfService: boolean;
  row: Omit<InboundPlan['row'], 'contact_id'>;
  arrived: CallEvent;
};

async function startInbound(ctx: AppContext, db: DbOrTx, p: Params): Promise<InboundStart | undefined> {
  const number = await findRoutingByE164Cached(ctx, e164(p.to ?? ''), db);
  if (!number || !p.callSid) return undefined;
  const from = e164(p.from ?? '');
  const fromState = p.fromState ?? null;
  const blocked = await isPartyBlocked(ctx, number.company_id, number.id, from, db);
  const outOfService = !blocked && !(await isCompanyInService(ctx, number.company_id, db));
  const row = {
    company_id: number.company_id,
    number_id: number.id,
    carrier_sid: p.callSid,
    from_number: from,
    to_number: number.number,
    from_state: fromState,
    direction: 'inbound',
    status: blocked ? CALL_STATUS.BLOCKED : CALL_STATUS.STARTED,
  };
  const arrived: CallEvent = { status: row.status, detail: { from, to: number.number, from_state: fromState, from_city: p.fromCity ?? null } };
  return { number, callSid: p.callSid, fromState, blocked, outOfService, row, arrived };
}

/** The number's only route entry, if it has exactly one (a round-robin one takes the cursor). */
function onlyEntry(start: InboundStart): RouteEntry | undefined {
  return start.number.routes.length === 1 ? start.number.routes[0] : undefined;
}

function isInAppDial(d: Decision): boolean {
  return d.outcome === 'dial' && d.entry?.type === 'in-app-calling';
}

/**
 * The plan of a decided inbound call. `contactId` undefined: left to the group-commit insert
 * (`storeInboundCall` matches the contact in its statement).
 */
function planOf(start: InboundStart, d: Decision | 'blocked' | 'out-of-service', contactId: number | null | undefined): InboundPlan {
  const row = { ...start.row, contact_id: contactId };
  if (d === 'blocked') return { row, events: [start.arrived], steps: [{ kind: 'reject', reason: 'rejected' }] };
  if (d === 'out-of-service') {
    // A parked or deactivated account (docs/accounts.md "Account status"): the call is kept as 10 Missed.
    return {
      row: { ...row, status: CALL_STATUS.MISSED },
      events: [start.arrived, { status: CALL_STATUS.MISSED, detail: { reason: 'out-of-service' } }],
      steps: [{ kind: 'say', text: OUT_OF_SERVICE_TEXT }, { kind: 'hangup' }],
    };
  }
  const ends =
    d.outcome === 'no-answer'
      ? { status: CALL_STATUS.NO_ANSWER, reason: 'no-answer' }
      : d.outcome === 'closed'
        ? { status: CALL_STATUS.MISSED, reason: 'closed' }
        : undefined;
  const inApp = isInAppDial(d);
  const events: CallEvent[] = [start.arrived];
  if (ends) events.push({ status: ends.status, detail: { reason: ends.reason } });
  else if (d.outcome === 'dial' && !inApp) events.push({ status: row.status, detail: { dialing: d.dialing } });
  else if (d.outcome === 'voicemail') events.push({ status: row.status, detail: { voicemail: 'prompted' } });
  return {
    row: { ...row, status: ends?.status ?? row.status },
    events,
    steps: d.steps,
    inApp: inApp ? { dialing: d.dialing ?? [], timeout: d.entry!.timeout } : undefined,
  };
}

/**
 * Decides an inbound call inside the webhook's transaction: matches the caller's contact and, when
 * a round-robin entry is about to ring, takes the number's cursor. undefined: reject (unknown
 * called number, no call SID).
 */
async function planInboundInTransaction(ctx: AppContext, tx: DbOrTx, p: Params, now: Date): Promise<InboundPlan | undefined> {
  const start = await startInbound(ctx, tx, p);
  if (!start) return undefined;
  const contactId = (await findContactByNumber(ctx, start.number.company_id, start.row.from_number, tx))?.id ?? null;
  if (start.blocked) return planOf(start, 'blocked', contactId);
  if (start.outOfService) return planOf(start, 'out-of-service', contactId);
  const flow = await loadFlow(ctx, tx, start.number, start.fromState, onlyEntry(start));
  const plan = planOf(start, decideInboundStep(flow, now, urls(ctx, start.callSid)), contactId);
  return { ...plan, steps: withRecording(ctx, start.number.record, plan.steps) };
}

/**
 * The carrier's `voice` webhook: a call arrived. An unknown called number → Reject; a blocked
 * caller → Reject and status 13; otherwise the call is stored (status 1) and the engine answers. When the answer
 * ends the call (closed → 10 Missed, no one to ring → 5 No Answer) the call is stored with that
 * status and both events. The decision is made before the call is stored, so the call and its
 * events take one statement; in-app ringing needs the stored call and follows.
 */
export async function routeInboundCall(ctx: AppContext, tx: DbOrTx, p: Params, now = new Date()): Promise<VoiceOutcome> {
  const plan = await planInboundInTransaction(ctx, tx, p, now);
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
 * The voice webhook's fast path (docs/architecture.md "The voice webhook's hot path"): decides an
 * inbound call from reads only (through the pool, no transaction). undefined when the call needs
 * `routeInboundCall` in a transaction: unknown number or no call SID (reject), a round-robin entry
 * (takes the cursor), in-app calling (rings users). Store the plan with `storeInboundCall`
 * (call-batching.ts).
 */
export async function planInboundCall(ctx: AppContext, p: Params, now = new Date()): Promise<InboundPlan | undefined> {
  const start = await startInbound(ctx, ctx.db, p);
  if (!start) return undefined;
  if (start.blocked) return planOf(start, 'blocked', undefined);
  if (start.outOfService) return planOf(start, 'out-of-service', undefined);
  if (onlyEntry(start)?.round_robin) return undefined;
  const d = decideInboundStep(await loadFlow(ctx, ctx.db, start.number, start.fromState), now, urls(ctx, start.callSid));
  if (isInAppDial(d)) return undefined;
  const plan = planOf(start, d, undefined);
  return { ...plan, steps: withRecording(ctx, start.number.record, plan.steps) };
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
  return { call, number: await loadFlow(ctx, tx, stored, call.from_state, roundRobin?.(stored)), record: stored.record };
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
    const changed = await setCallStatus(
      tx,
      call,
      CALL_STATUS.EXTENSION_SELECTED,
      { extension: d.entry.extension, label: d.entry.label },
      { extension: d.entry.extension },
    );
    const out = await apply(ctx, tx, { ...call, status: CALL_STATUS.EXTENSION_SELECTED, extension: d.entry.extension }, d);
    return { steps: withRecording(ctx, found.record, out.steps), changed: out.changed ?? changed, after: out.after };
  }
  return { steps: withRecording(ctx, found.record, d.steps) };
}

/** POST /voice/dial?ext=E&i=I&rr=C: the result of a Dial (`dialStatus`, `dialDurationS`); `rr` the call's round-robin cursor. */
export async function handleDialResult(
  ctx: AppContext,
  tx: DbOrTx,
  p: Params,
  ext: number,
  index: number,
  now = new Date(),
  rr?: number,
): Promise<VoiceOutcome> {
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
    const confirmedBy = [...events].reverse().find((e) => typeof (e.detail as Record<string, unknown>).confirmed_by === 'string')?.detail.confirmed_by as
      string | undefined;
    const forwards = lastDialing(events) ?? entry.forwards.map((f) => f.number);
    const forwardedTo = confirmedBy ?? (forwards.length === 1 ? forwards[0] : forwards.join(', ')) ?? null;
    const changed = await setCallStatus(
      tx,
      call,
      CALL_STATUS.CONNECTED,
      { dial_status: status, forwarded_to: forwardedTo, dial_duration_s: p.dialDurationS },
      { answered_at: new Date(), forwarded_to: forwardedTo },
    );
    return { steps: d.steps, changed, after };
  }
  await callsRepository.insertEvent(tx, call.id, call.status, { dial_status: status, forward_index: index });
  const next = await apply(ctx, tx, call, d);
  return { ...next, steps: withRecording(ctx, found.record, next.steps), after };
}

/**
 * The caller's next steps after a blind transfer of answered inbound call `call` that nobody took (docs/calling.md
 * "Transfer of an answered inbound call"; routing `decideAfterTransfer`): the extension's voicemail, or a goodbye.
 * The call stays 12 Connected (it was answered); a voicemail left now is stored with it ({@link handleRecording}).
 * @returns the steps and whether they prompt for a voicemail; undefined when the number is gone (the call ends).
 */
export async function afterUnansweredTransfer(ctx: AppContext, tx: DbOrTx, call: CallRow): Promise<{ steps: CallFlowStep[]; voicemail: boolean } | undefined> {
  const stored = await findRoutingById(ctx, call.number_id, tx);
  if (!stored) return undefined;
  const number = await loadFlow(ctx, tx, stored, call.from_state);
  const d = decideAfterTransfer(number, call.extension, urls(ctx, call.carrier_sid));
  return { steps: withRecording(ctx, stored.record, d.steps), voicemail: d.outcome === 'voicemail' };
}

/** The forwards (or in-app identities) of the call's last dial, from its history. */
function lastDialing(events: Array<{ detail: unknown }>): string[] | undefined {
  const e = [...events].reverse().find((x) => Array.isArray((x.detail as { dialing?: unknown }).dialing));
  return e ? (e.detail as { dialing: string[] }).dialing : undefined;
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
  await callsRepository.insertEvent(
    tx,
    found.call.id,
    found.call.status,
    r.accepted ? { confirmed_by: forward } : { declined_by: forward, digits: p.digits ?? '' },
  );
  return { steps: r.steps };
}

/**
 * POST /voice/recording?ext=E: the voicemail was recorded. Stores the voicemail (`storeVoicemail`:
 * the recording is copied into our blob store later, the entry's alert address is mailed) and sets
 * status 4 (a call answered before, then transferred unanswered, keeps its status). A recording without URL or of
 * 0 s is ignored.
 */
export async function handleRecording(ctx: AppContext, tx: DbOrTx, p: Params, ext?: number): Promise<VoiceOutcome> {
  const call = p.callSid ? await callsRepository.findBySidForUpdate(tx, p.callSid) : undefined;
  if (!call) return { steps: HANGUP };
  const duration = p.recordingDurationS;
  if (!p.recordingUrl || duration === 0) return { steps: afterRecordingSteps() };
  const vm = await storeVoicemail(ctx, tx, call, { url: p.recordingUrl, sid: p.recordingSid ?? null, durationS: duration }, ext);
  // A call answered before (then transferred to someone who did not answer) stays answered: the voicemail is added to it.
  const status = call.answered_at ? call.status : CALL_STATUS.VOICEMAIL;
  const changed = await setCallStatus(tx, call, status, { voicemail_id: vm.id, recording_sid: p.recordingSid ?? null, duration_s: duration });
  return { steps: afterRecordingSteps(), changed };
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
    return { steps: [], changed: await setCallStatus(tx, call, CALL_STATUS.HANGUP, { call_status: p.callStatus, duration_s: patch.duration_s }, patch), after };
  }
  await callsRepository.update(tx, call.id, patch);
  await callsRepository.insertEvent(tx, call.id, call.status, { call_status: p.callStatus, duration_s: patch.duration_s });
  return { steps: [], changed: { companyId: call.company_id, id: call.id, status: call.status }, after };
}
