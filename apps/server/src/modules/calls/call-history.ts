/**
 * Call history: past, completed inbound calls recorded after the fact (docs/telephony.md "Call history"; spec 001
 * §3 "Call", foundation §3 call status codes). Used by the demo seed (seed/demo-history.ts) so that the dashboard and
 * call reports have weeks of data; usable by an import of another provider's call log.
 *
 * A past call is stored exactly as the call flow (call-flow.ts) leaves a finished call of that kind: the `calls` row
 * with its final status, `answered_at`, `ended_at` and length, its `call_events` history at the times they happened,
 * and for a voicemail its `voicemails` row. After commit every call is announced as `call.changed` with
 * `history: true`: the reporting store builds its facts, while the subscribers that react to live calls (inbox
 * threads, call tracking's attribution and live feed, alerts and monitors, outbound webhooks, usage metering,
 * automatic caller-name lookups) ignore it (platform/events/call-events.ts). No live `call updated`, no voicemail
 * e-mail, no transcription: history is not something happening now, and nobody is to be told about it.
 */
import crypto from 'node:crypto';
import { CALL_STATUS, type RouteEntry } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import { ownerOfKey } from '../../platform/blob/access.js';
import { events as domainEvents, type Emitted } from '../../platform/events/index.js';
import { NotFoundError, ValidationError, type FieldErrors } from '../../platform/http/errors.js';
import { findContactByNumber } from '../contacts/contacts.service.js';
import { findRoutingById } from '../numbers/numbers.service.js';
import { callsRepository } from './calls.repository.js';
import { FETCH_RECORDING_JOB } from './voicemails.js';

/** One past inbound call (see {@link importCallHistory}). Times are instants; lengths are whole seconds. */
export type PastCall = {
  /** The company's number that was called (`numbers.id`). */
  numberId: number;
  /** The caller, E.164 (`+` and 8 to 15 digits). */
  from: string;
  /** When the call arrived; before now. */
  startedAt: Date;
  /**
   * `answered`: a forward picked up (12 Connected); `missed`: the caller hung up while the forwards rang (3 Hangup);
   * `voicemail`: nobody answered and the caller left a message (4 Voicemail).
   */
  outcome: 'answered' | 'missed' | 'voicemail';
  /** Seconds the forwards rang: until the answer, the caller's hang-up, or the voicemail prompt. 0 to 600. */
  ringSeconds: number;
  /** `answered`: the conversation's length in seconds, 1 to 86,400 (required). Ignored otherwise. */
  talkSeconds?: number;
  /**
   * `voicemail` (required): the message's length in seconds (1 to 3,600); its recording's URL (a carrier URL is
   * copied into the blob store by the `calls.fetch-recording` job like a live voicemail's; one of the company's own
   * blobs is kept; none: the voicemail has no audio); whether it was listened to (default true: it is history).
   */
  voicemail?: { durationS: number; recordingUrl?: string; isRead?: boolean };
  /** The menu choice on a number with several route entries (default: the first entry). */
  extension?: number;
  /** The caller's state and city as a carrier reports them (default null). */
  fromState?: string | null;
  fromCity?: string | null;
};

/** Seconds between the voicemail prompt and the start of the recording (the greeting and the beep). */
const PROMPT_S = 4;
/** Seconds a caller takes to choose in a menu. */
const MENU_S = 3;
/** Calls written per statement. */
const CHUNK = 1_000;
const E164 = /^\+[1-9]\d{7,14}$/;

type EventRow = { call_id: number; status: number; detail: string; created_at: Date };

/**
 * Records past, completed inbound calls of company `companyId` (see the module doc), in ONE transaction of a few
 * statements per 1,000 calls, announces each as `call.changed` with `history: true` in that transaction (dispatched after commit), oldest
 * first. Each call's outside party is matched to the company's contact with that number, as on a live call.
 *
 * Dials follow the reached route entry as the call flow does: a simultaneous entry rings all its forwards at once,
 * any other entry its forwards in turn (an answered call: the first one; a voicemail: each, then the prompt).
 * Lengths: an answered call lasts ring + talk (`answered_at` after the ring), a missed one the ring, a voicemail
 * ring + prompt + message; a menu choice adds a few seconds before the ring.
 *
 * @returns the new calls' ids, in input order.
 * @throws ValidationError 422 with `calls.{i}.{field}` errors (bad number, time in the future, missing talk or
 *   voicemail length, unknown extension); NotFoundError 404 when a number is not the company's.
 */
export async function importCallHistory(ctx: AppContext, companyId: number, calls: readonly PastCall[]): Promise<{ callIds: number[] }> {
  if (calls.length === 0) return { callIds: [] };
  const numbers = new Map<number, NonNullable<Awaited<ReturnType<typeof findRoutingById>>>>();
  for (const id of new Set(calls.map((c) => c.numberId))) {
    const n = await findRoutingById(ctx, id);
    if (!n || n.company_id !== companyId) throw new NotFoundError('Number');
    numbers.set(id, n);
  }
  const now = Date.now();
  const errors: FieldErrors = {};
  const err = (i: number, field: string, message: string) => (errors[`calls.${i}.${field}`] = [message]);
  calls.forEach((c, i) => {
    if (!E164.test(c.from)) err(i, 'from', 'The caller must be an E.164 number.');
    if (!(c.startedAt instanceof Date) || Number.isNaN(c.startedAt.getTime()) || c.startedAt.getTime() > now)
      err(i, 'startedAt', 'The call must be in the past.');
    if (!isSeconds(c.ringSeconds, 0, 600)) err(i, 'ringSeconds', 'Ring time must be 0 to 600 seconds.');
    if (c.outcome === 'answered' && !isSeconds(c.talkSeconds, 1, 86_400)) err(i, 'talkSeconds', 'An answered call needs 1 to 86,400 seconds of talk.');
    if (c.outcome === 'voicemail' && !isSeconds(c.voicemail?.durationS, 1, 3_600)) err(i, 'voicemail.durationS', 'A voicemail needs a length of 1 to 3,600 s.');
    if (!['answered', 'missed', 'voicemail'].includes(c.outcome)) err(i, 'outcome', 'The outcome must be answered, missed or voicemail.');
    const routes = numbers.get(c.numberId)!.routes;
    if (routes.length === 0) err(i, 'numberId', 'The number has no route entry.');
    else if (c.extension !== undefined && !routes.some((r) => r.extension === c.extension)) err(i, 'extension', 'The number has no such extension.');
  });
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);

  // The callers' contacts, looked up together (lookups made in one turn share a statement).
  const parties = [...new Set(calls.map((c) => c.from))];
  const contactOf = new Map(await Promise.all(parties.map(async (p) => [p, (await findContactByNumber(ctx, companyId, p))?.id ?? null] as const)));

  const plans = calls.map((c) => planPastCall(c, numbers.get(c.numberId)!, contactOf.get(c.from) ?? null, companyId));
  const callIds: number[] = [];
  const vmIds = new Map<number, number>();
  const emitted: Emitted[] = [];
  await ctx.db.transaction().execute(async (tx) => {
    for (let at = 0; at < plans.length; at += CHUNK) {
      const chunk = plans.slice(at, at + CHUNK);
      const inserted = await callsRepository.insertMany(
        tx,
        chunk.map((p) => p.row),
      );
      const idOf = new Map(inserted.map((r) => [r.carrier_sid, r.id]));
      const ids = chunk.map((p) => idOf.get(p.row.carrier_sid)!);
      callIds.push(...ids);
      const withVm = chunk.map((p, k) => ({ p, id: ids[k]! })).filter((x) => x.p.voicemail);
      if (withVm.length > 0) {
        const vms = await callsRepository.insertVoicemailsMany(
          tx,
          withVm.map(({ p, id }) => ({
            company_id: companyId,
            call_id: id,
            number_id: p.row.number_id,
            recording_url: p.voicemail!.url,
            recording_sid: null,
            duration_s: p.voicemail!.durationS,
            is_read: p.voicemail!.isRead,
            created_at: p.voicemail!.at,
          })),
        );
        for (const v of vms) {
          vmIds.set(v.call_id, v.id);
          // A carrier's recording is copied into our blob store, as for a live voicemail.
          const own = ctx.blobs.keyOf(v.recording_url);
          if (v.recording_url && !(own && ownerOfKey(own) === companyId))
            await ctx.queue.enqueue(FETCH_RECORDING_JOB, { voicemailId: v.id }, { singletonKey: `vm:${v.id}` }, tx);
        }
      }
      const rows: EventRow[] = chunk.flatMap((p, k) =>
        p.events.map((e) => ({
          call_id: ids[k]!,
          status: e.status,
          detail: JSON.stringify(e.voicemail ? { ...e.detail, voicemail_id: vmIds.get(ids[k]!) ?? null } : e.detail),
          created_at: e.at,
        })),
      );
      await callsRepository.insertEventsMany(tx, rows);
    }
    // Each call announced once as `call.changed` with `history: true`, oldest first, in the same transaction (the outbox).
    const order = plans.map((p, i) => ({ p, id: callIds[i]! })).sort((a, b) => a.p.row.started_at.getTime() - b.p.row.started_at.getTime() || a.id - b.id);
    for (let at = 0; at < order.length; at += CHUNK) {
      const part = await domainEvents.emitMany(
        tx,
        order.slice(at, at + CHUNK).map(({ p, id }) => ({
          name: 'call.changed' as const,
          payload: {
            callId: id,
            companyId,
            numberId: p.row.number_id,
            from: p.row.from_number,
            status: p.row.status,
            direction: 'inbound' as const,
            voicemailId: vmIds.get(id) ?? null,
            // A voicemail's length is its recording's (as in call-changes.ts).
            durationS: p.voicemail ? p.voicemail.durationS : p.row.duration_s,
            startedAt: p.row.started_at,
            endedAt: p.row.ended_at ?? null,
            contactId: p.row.contact_id,
            history: true,
          },
        })),
      );
      emitted.push(part);
    }
  });
  await domainEvents.dispatch(ctx, emitted);

  return { callIds };
}

function isSeconds(v: unknown, min: number, max: number): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;
}

type PlannedEvent = { status: number; detail: Record<string, unknown>; at: Date; voicemail?: true };
type Plan = {
  row: {
    company_id: number;
    number_id: number;
    carrier_sid: string;
    from_number: string;
    to_number: string;
    from_state: string | null;
    direction: 'inbound';
    status: number;
    extension: number | null;
    forwarded_to: string | null;
    duration_s: number;
    contact_id: number | null;
    started_at: Date;
    answered_at: Date | null;
    ended_at: Date;
  };
  events: PlannedEvent[];
  voicemail?: { durationS: number; url: string; isRead: boolean; at: Date };
};

/** The rows and history events a finished call of this kind has (call-flow.ts, as the voice webhooks write them). */
function planPastCall(c: PastCall, number: { id: number; number: string; routes: RouteEntry[] }, contactId: number | null, companyId: number): Plan {
  const t0 = c.startedAt.getTime();
  const at = (s: number) => new Date(t0 + Math.round(s * 1000));
  const menu = number.routes.length > 1;
  const entry = number.routes.find((r) => r.extension === c.extension) ?? number.routes[0]!;
  const forwards = entry.forwards.map((f) => f.number);
  const attempts = entry.type === 'simultaneous' || forwards.length <= 1 ? [forwards] : forwards.map((f) => [f]);
  const ring = Math.round(c.ringSeconds);
  const dialAt = menu ? MENU_S : 0;
  const live = menu ? CALL_STATUS.EXTENSION_SELECTED : CALL_STATUS.STARTED;
  const events: PlannedEvent[] = [
    { status: CALL_STATUS.STARTED, detail: { from: c.from, to: number.number, from_state: c.fromState ?? null, from_city: c.fromCity ?? null }, at: at(0) },
  ];
  if (menu) events.push({ status: live, detail: { extension: entry.extension, label: entry.label }, at: at(dialAt) });
  const row: Plan['row'] = {
    company_id: companyId,
    number_id: number.id,
    carrier_sid: `HI${crypto.randomBytes(16).toString('hex')}`,
    from_number: c.from,
    to_number: number.number,
    from_state: c.fromState ?? null,
    direction: 'inbound',
    status: live,
    extension: menu ? entry.extension : null,
    forwarded_to: null,
    duration_s: 0,
    contact_id: contactId,
    started_at: c.startedAt,
    answered_at: null,
    ended_at: c.startedAt,
  };
  const end = (status: number, lengthS: number) => {
    row.status = status;
    row.duration_s = lengthS;
    row.ended_at = at(lengthS);
    events.push({ status, detail: { call_status: 'completed', duration_s: lengthS }, at: row.ended_at });
  };

  if (c.outcome === 'answered') {
    const talk = Math.round(c.talkSeconds!);
    const dialing = attempts[0]!;
    const forwardedTo = dialing.length === 1 ? dialing[0]! : dialing.join(', ');
    events.push({ status: live, detail: { dialing }, at: at(dialAt) });
    row.answered_at = at(dialAt + ring);
    row.forwarded_to = forwardedTo;
    events.push({
      status: CALL_STATUS.CONNECTED,
      detail: { dial_status: 'completed', forwarded_to: forwardedTo, dial_duration_s: talk },
      at: row.answered_at,
    });
    end(CALL_STATUS.CONNECTED, dialAt + ring + talk);
  } else if (c.outcome === 'missed') {
    // The caller hung up while the first dial rang (call-flow.ts handleCallStatus: 1/2 → 3 Hangup).
    events.push({ status: live, detail: { dialing: attempts[0]! }, at: at(dialAt) });
    end(CALL_STATUS.HANGUP, dialAt + ring);
  } else {
    const vm = c.voicemail!;
    attempts.forEach((dialing, i) => {
      events.push({ status: live, detail: { dialing }, at: at(dialAt + (ring * i) / attempts.length) });
      events.push({ status: live, detail: { dial_status: 'no-answer', forward_index: i }, at: at(dialAt + (ring * (i + 1)) / attempts.length) });
    });
    events.push({ status: live, detail: { voicemail: 'prompted' }, at: at(dialAt + ring) });
    const recorded = at(dialAt + ring + PROMPT_S + vm.durationS);
    events.push({ status: CALL_STATUS.VOICEMAIL, detail: { recording_sid: null, duration_s: vm.durationS }, at: recorded, voicemail: true });
    end(CALL_STATUS.VOICEMAIL, dialAt + ring + PROMPT_S + Math.round(vm.durationS));
    return { row, events, voicemail: { durationS: Math.round(vm.durationS), url: vm.recordingUrl ?? '', isRead: vm.isRead ?? true, at: recorded } };
  }
  return { row, events };
}
