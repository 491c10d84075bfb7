/**
 * Attribution of inbound calls and grouping of leads (spec 002 "DNI", spec 001 filters
 * `isFirstContact`, `attributionModel`; docs/tracking.md "Attribution", "Leads", "First contact").
 *
 * On the first `call.changed` of an inbound call (first sight), in one transaction:
 * - a pool number → the session that held it at the call's start (or in its cool-down after);
 *   a static tracking number → its source; anything else → unattributed (`none`);
 * - first contact = no earlier inbound call from the same number to the company;
 * - the caller's lead (one per company and phone number) is found or created, and counts the call
 *   only when this delivery's attribution insert won (a duplicate delivery counts nothing); the
 *   matched visitor's sessions join the lead.
 * In the insert's transaction: `call.attributed` (exactly once per call: the insert decides); its `tracking.live`
 * consumer sends `dni call matched` to the real-time feed. Later `call.changed` of the call keep its status and
 * length current ({@link syncAttributionState}: read from the call under the row's lock, so the row
 * converges to the call's latest state even when events overtake each other). Inbound texts (`message.received`) join the sender's lead.
 */
import type { DniFeedCall, TrafficSource } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { events, type CallChangedEvent, type DomainEvents, type Emitted } from '../../platform/events/index.js';
import type { StoredTouch } from '../../platform/db/schema-tracking.js';
import { callsForFacts } from '../calls/calls.service.js';
import { getCompanyNumbers } from '../numbers/numbers.service.js';
import { leadsRepository } from './leads.repository.js';
import { trackingRepository, type AttributionRow, type PoolNumberRow, type SessionRow, type StaticSourceRow } from './tracking.repository.js';

/** The live-feed shape of an attributed call. */
export function toFeedCall(a: AttributionRow, poolName: string | null): DniFeedCall {
  return {
    call_id: a.call_id,
    at: a.started_at.toISOString(),
    from: a.from_number,
    number: a.number,
    method: a.method as DniFeedCall['method'],
    session_id: a.session_id,
    pool_id: a.pool_id,
    pool_name: poolName,
    traffic_source: a.traffic_source as TrafficSource | null,
    source: a.source,
    campaign: a.campaign,
    keyword: a.keyword,
    landing_page: a.landing_page,
    is_first_contact: a.is_first_contact,
  };
}

function asDate(v: Date | string | null | undefined): Date {
  if (v instanceof Date) return v;
  if (typeof v === 'string') {
    const d = new Date(v);
    if (!Number.isNaN(d.getTime())) return d;
  }
  return new Date();
}

/**
 * Brings calls' attribution rows to the calls' current status and length (issue 23 item 5: a row must converge to
 * its call's latest state whatever order its `call.changed` events are handled in, on any node). Under the rows'
 * locks (`for update`, in call id order), so one writer per call at a time, it reads the calls through the calls
 * module; the last writer runs after the call's last change committed, so the row ends at that state. Length in
 * whole seconds: the call's, or for a call with a voicemail the recording's (as `call.changed` carries it; kept as
 * stored until an event naming the voicemail arrives). A call without an attribution row (not attributed yet, or
 * deleted) is left alone. One transaction for all of `list`.
 */
export async function syncAttributionStates(
  ctx: AppContext,
  list: ReadonlyArray<Pick<CallChangedEvent, 'callId' | 'voicemailId' | 'durationS'>>,
): Promise<void> {
  if (list.length === 0) return;
  const byCall = new Map(list.map((e) => [e.callId, e]));
  await ctx.db.transaction().execute(async (tx) => {
    const rows = await trackingRepository.lockAttributionStates(tx, [...byCall.keys()]);
    if (rows.length === 0) return;
    const calls = new Map(
      (
        await callsForFacts(
          ctx,
          rows.map((r) => r.call_id),
          tx,
        )
      ).map((c) => [c.id, c]),
    );
    const changes: Array<{ callId: number; status: number; durationS: number }> = [];
    for (const row of rows) {
      const call = calls.get(row.call_id);
      const e = byCall.get(row.call_id);
      if (!call || !e) continue;
      const durationS =
        call.voicemail_id === null ? Math.round(call.duration_s) : e.voicemailId === call.voicemail_id ? Math.round(e.durationS ?? 0) : row.duration_s;
      if (row.status !== call.status || row.duration_s !== durationS) changes.push({ callId: row.call_id, status: call.status, durationS });
    }
    await trackingRepository.updateAttributionStates(tx, changes);
  });
}

/** What call tracking knows of a number for attribution: its pool (and the session holding it), or its static source. */
type NumberTouch = {
  poolNumber: (PoolNumberRow & { pool_name: string }) | undefined;
  session: SessionRow | undefined;
  staticSource: StaticSourceRow | undefined;
  number: string;
};

/** Handler of one `call.changed` (a batch of one; tests and direct calls). See {@link onCallsChanged}. */
export async function onCallChanged(ctx: AppContext, e: CallChangedEvent): Promise<void> {
  await onCallsChanged(ctx, [{ payload: e }]);
}

/**
 * Handler of `call.changed` for a round's calls together (at most one event per call): attributes the inbound calls
 * seen for the first time (see the module doc) in one transaction, and keeps the stored status and length of the
 * others current. Idempotent: the attribution insert decides which delivery is a call's first; a duplicate counts
 * nothing.
 */
export async function onCallsChanged(ctx: AppContext, items: ReadonlyArray<{ payload: CallChangedEvent }>): Promise<void> {
  // A past call recorded after the fact (`history`) had no visitor session to match and is no live feed entry.
  const list = items.map((i) => i.payload).filter((e) => e.direction !== 'outbound' && !e.history);
  if (list.length === 0) return;
  const existing = await trackingRepository.attributionStates(
    ctx.db,
    list.map((e) => e.callId),
  );
  const changed = list.filter((e) => {
    const row = existing.get(e.callId);
    return row && (row.status !== e.status || row.duration_s !== Math.round(e.durationS ?? 0));
  });
  const fresh = list.filter((e) => !existing.has(e.callId));
  if (fresh.length === 0) return syncAttributionStates(ctx, changed);

  // What each new call's number tells: read together, outside the transaction.
  const numberIds = [...new Set(fresh.map((e) => e.numberId))];
  const [pools, statics] = await Promise.all([
    trackingRepository.poolsOfNumbers(ctx.db, numberIds),
    trackingRepository.staticSourcesOfNumbers(ctx.db, numberIds),
  ]);
  const staticOf = new Map(statics.map((st) => [st.number_id, st]));
  const touches = new Map<number, NumberTouch>();
  const plainNumbers = new Map<number, number[]>(); // company → numbers neither pooled nor static
  for (const e of fresh) {
    const poolNumber = pools.get(e.numberId);
    const session = poolNumber ? await trackingRepository.sessionHoldingAt(ctx.db, e.numberId, asDate(e.startedAt)) : undefined;
    const staticSource = poolNumber ? undefined : staticOf.get(e.numberId);
    touches.set(e.callId, { poolNumber, session, staticSource, number: poolNumber?.number ?? staticSource?.number ?? '' });
    if (!poolNumber && !staticSource) plainNumbers.set(e.companyId, [...(plainNumbers.get(e.companyId) ?? []), e.numberId]);
  }
  const plain = new Map<number, string>();
  for (const [companyId, ids] of plainNumbers) {
    for (const n of await getCompanyNumbers(ctx, companyId, [...new Set(ids)], { includeReleased: true })) plain.set(n.id, n.number);
  }

  let emitted: Emitted | undefined;
  await ctx.db.transaction().execute(async (tx) => {
    // First contact: no earlier stored call of the caller to the company, nor an earlier one of this batch.
    const earlier = await trackingRepository.callersWithEarlierCalls(
      tx,
      fresh.map((e) => ({ companyId: e.companyId, from: e.from, at: asDate(e.startedAt), callId: e.callId })),
    );
    const firstInBatch = new Map<string, CallChangedEvent>();
    for (const e of fresh) {
      const key = `${e.companyId}:${e.from}`;
      const seen = firstInBatch.get(key);
      const at = asDate(e.startedAt).getTime();
      if (!seen || at < asDate(seen.startedAt).getTime() || (at === asDate(seen.startedAt).getTime() && e.callId < seen.callId)) firstInBatch.set(key, e);
    }
    // The callers' leads are found (or created) uncounted, in a fixed order (two nodes' batches never deadlock); the
    // attribution insert below decides whether this delivery of a call is its first, and only then is the call counted
    // (a duplicate webhook or another node's delivery waits on the lead's row and then counts nothing).
    const leads = await leadsRepository.ensureLeads(
      tx,
      fresh.map((e) => ({ companyId: e.companyId, phone: e.from, at: asDate(e.startedAt) })),
    );
    const rows = await trackingRepository.insertAttributions(
      tx,
      fresh.map((e) => {
        const { poolNumber, session, staticSource, number } = touches.get(e.callId)!;
        const lastTouch: StoredTouch | null = session
          ? { traffic_source: session.traffic_source, source: session.source, medium: session.medium, campaign: session.campaign, keyword: session.keyword }
          : staticSource
            ? {
                traffic_source: staticSource.traffic_source,
                source: staticSource.source ?? staticSource.name,
                medium: staticSource.medium,
                campaign: staticSource.campaign,
                keyword: staticSource.keyword,
              }
            : null;
        return {
          call_id: e.callId,
          company_id: e.companyId,
          number_id: e.numberId,
          number: number || plain.get(e.numberId) || '',
          from_number: e.from,
          started_at: asDate(e.startedAt),
          is_first_contact: !earlier.has(e.callId) && firstInBatch.get(`${e.companyId}:${e.from}`) === e,
          lead_id: leads.get(`${e.companyId}:${e.from}`)!.id,
          method: poolNumber ? 'pool' : staticSource ? 'static' : 'none',
          pool_id: poolNumber?.pool_id ?? null,
          static_source_id: staticSource?.id ?? null,
          session_id: session?.id ?? null,
          traffic_source: lastTouch?.traffic_source ?? null,
          source: lastTouch?.source ?? null,
          medium: lastTouch?.medium ?? null,
          campaign: lastTouch?.campaign ?? null,
          keyword: lastTouch?.keyword ?? null,
          landing_page: session?.landing_page ?? null,
          referrer: session?.referrer ?? null,
          gclid: session?.gclid ?? null,
          gbraid: session?.gbraid ?? null,
          wbraid: session?.wbraid ?? null,
          msclkid: session?.msclkid ?? null,
          fbclid: session?.fbclid ?? null,
          first_touch: JSON.stringify(session ? session.first_touch : lastTouch),
          status: e.status,
          duration_s: Math.round(e.durationS ?? 0),
        };
      }),
    );
    if (rows.length === 0) return; // other deliveries saw them first
    // The calls' attributions are announced in the same transaction (the outbox): a crash cannot lose them.
    emitted = await events.emitMany(
      tx,
      rows.map((row) => ({ name: 'call.attributed' as const, payload: { ...attributedPayload(row), ...adIdsPayload(touches.get(row.call_id)!.session) } })),
      { leaseTo: ctx.queue.workerId }, // dispatched below (into the running round)
    );
    await leadsRepository.countLeadCalls(
      tx,
      rows.map((r) => ({ leadId: r.lead_id!, at: r.started_at })),
    );
    for (const row of rows) {
      const session = touches.get(row.call_id)!.session;
      if (!session) continue;
      await trackingRepository.bumpSessionCalls(tx, session.id);
      await trackingRepository.setSessionsLead(tx, row.company_id, session.visitor_id, row.lead_id!);
    }
  });
  // Whether this delivery's insert won or not, a later event of a call may have arrived meanwhile and lost its
  // insert to this one (or this one to an earlier one): bring the rows to the calls' state now.
  await syncAttributionStates(ctx, [...changed, ...fresh]);
  // The live feed hears of them from the `tracking.live` consumer of the recorded `call.attributed`.
  await events.dispatch(ctx, emitted);
}

/**
 * `dni call matched` (the real-time feed, `DniFeedCall`) on `company.{companyId}` as a consumer of the recorded
 * `call.attributed` (one announcement per change): the stored attribution with its pool's name. Registered by the
 * module's setup.
 */
export async function onCallsAttributedLive(ctx: AppContext, items: ReadonlyArray<{ payload: DomainEvents['call.attributed'] }>): Promise<void> {
  const rows = await trackingRepository.findAttributions(
    ctx.db,
    items.map((i) => i.payload.callId),
  );
  for (const row of rows) ctx.realtime.send(`company.${row.company_id}`, 'dni call matched', toFeedCall(row, row.pool_name));
}

/** Handler of `message.received` for a round's texts together: each sender's lead counts the text (once per carrier message). */
export async function onMessagesReceived(ctx: AppContext, items: ReadonlyArray<{ payload: DomainEvents['message.received'] }>): Promise<void> {
  // A short code or alphanumeric sender is no person to group.
  const texts = items.map((i) => i.payload).filter((e) => /^\+\d{6,15}$/.test(e.from));
  if (texts.length === 0) return;
  await ctx.db.transaction().execute(async (tx) => {
    const fresh = await trackingRepository.insertTexts(
      tx,
      texts.map((e) => ({
        carrier_sid: e.carrierSid,
        company_id: e.companyId,
        lead_id: null,
        from_number: e.from,
        number_id: e.numberId,
        at: asDate(e.receivedAt),
      })),
    );
    const counted = texts.filter((e) => fresh.has(e.carrierSid));
    const leads = await leadsRepository.countLeadTexts(
      tx,
      counted.map((e) => ({ companyId: e.companyId, phone: e.from, at: asDate(e.receivedAt) })),
    );
    await trackingRepository.setTextLeads(
      tx,
      counted.map((e) => ({ carrierSid: e.carrierSid, leadId: leads.get(`${e.companyId}:${e.from}`)!.id })),
    );
  });
}

/**
 * The GA4 and Meta browser ids of the session that held the number, and when it started, for the integrations'
 * deliveries (issue 24; docs/tracking.md "Ad platform ids"): GA4 joins the call to the web session only within 24 h
 * of its start. Empty without a session.
 */
function adIdsPayload(session: SessionRow | undefined): Partial<DomainEvents['call.attributed']> {
  if (!session) return {};
  return {
    gaClientId: session.ga_client_id,
    gaSessionId: session.ga_session_id,
    fbp: session.fbp,
    fbc: session.fbc,
    sessionStartedAt: new Date(session.started_at).toISOString(),
  };
}

/** The `call.attributed` payload of a stored attribution row. */
function attributedPayload(stored: AttributionRow): DomainEvents['call.attributed'] {
  const first = stored.first_touch;
  return {
    callId: stored.call_id,
    companyId: stored.company_id,
    startedAt: stored.started_at,
    from: stored.from_number,
    numberId: stored.number_id,
    isFirstContact: stored.is_first_contact,
    leadId: stored.lead_id,
    method: stored.method as 'pool' | 'static' | 'none',
    poolId: stored.pool_id,
    staticSourceId: stored.static_source_id,
    sessionId: stored.session_id,
    trafficSource: stored.traffic_source as TrafficSource | null,
    source: stored.source,
    medium: stored.medium,
    campaign: stored.campaign,
    keyword: stored.keyword,
    landingPage: stored.landing_page,
    referrer: stored.referrer,
    gclid: stored.gclid,
    gbraid: stored.gbraid,
    wbraid: stored.wbraid,
    msclkid: stored.msclkid,
    fbclid: stored.fbclid,
    firstTouch: first
      ? { trafficSource: first.traffic_source as TrafficSource, source: first.source, medium: first.medium, campaign: first.campaign, keyword: first.keyword }
      : null,
  };
}
