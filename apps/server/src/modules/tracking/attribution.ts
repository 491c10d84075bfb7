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
import { trackingRepository, type AttributionRow, type SessionRow } from './tracking.repository.js';

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
 * Brings a call's attribution row to the call's current status and length (issue 23 item 5: the row
 * must converge to the call's latest state whatever order its `call.changed` events are handled in,
 * on any node). Under the row's lock (`for update`), so one writer per call at a time, it reads the
 * call as committed now through the calls module and stores its status and length when they differ.
 * The last writer runs after the call's last change committed, so the row ends at that state.
 * Length in whole seconds: the call's, or for a call with a voicemail the recording's (as
 * `call.changed` carries it; kept as stored until an event naming the voicemail arrives).
 * A call without an attribution row (not attributed yet, or deleted) is left alone.
 */
export async function syncAttributionState(ctx: AppContext, e: Pick<CallChangedEvent, 'callId' | 'voicemailId' | 'durationS'>): Promise<void> {
  await ctx.db.transaction().execute(async (tx) => {
    const row = await trackingRepository.lockAttributionState(tx, e.callId);
    if (!row) return;
    const [call] = await callsForFacts(ctx, [e.callId], tx);
    if (!call) return;
    const durationS =
      call.voicemail_id === null ? Math.round(call.duration_s) : e.voicemailId === call.voicemail_id ? Math.round(e.durationS ?? 0) : row.duration_s;
    if (row.status !== call.status || row.duration_s !== durationS) await trackingRepository.updateAttributionStatus(tx, e.callId, call.status, durationS);
  });
}

/**
 * Handler of `call.changed`: attributes an inbound call on first sight (see the module doc), else
 * keeps its stored status and length current. Idempotent.
 */
export async function onCallChanged(ctx: AppContext, e: CallChangedEvent): Promise<void> {
  // A past call recorded after the fact (`history`) had no visitor session to match and is no live feed entry.
  if (e.direction === 'outbound' || e.history) return;
  const durationS = Math.round(e.durationS ?? 0);
  const existing = await trackingRepository.findAttribution(ctx.db, e.companyId, e.callId);
  if (existing) {
    if (existing.status !== e.status || existing.duration_s !== durationS) await syncAttributionState(ctx, e);
    return;
  }
  const startedAt = asDate(e.startedAt);
  const poolNumber = await trackingRepository.poolOfNumber(ctx.db, e.numberId);
  const session = poolNumber ? await trackingRepository.sessionHoldingAt(ctx.db, e.numberId, startedAt) : undefined;
  const staticSource = poolNumber ? undefined : await trackingRepository.staticSourceOfNumber(ctx.db, e.numberId);
  const number =
    poolNumber?.number ?? staticSource?.number ?? (await getCompanyNumbers(ctx, e.companyId, [e.numberId], { includeReleased: true }))[0]?.number ?? '';

  let emitted: Emitted | undefined;
  const stored = await ctx.db.transaction().execute(async (tx) => {
    const firstContact = !(await trackingRepository.hasEarlierCall(tx, e.companyId, e.from, startedAt, e.callId));
    // The lead is found (or created) uncounted; the attribution insert below decides whether this
    // delivery of the call is its first, and only then is the call counted (a duplicate webhook or
    // another node's delivery waits on the lead's row and then counts nothing).
    const lead = await leadsRepository.ensureLead(tx, e.companyId, e.from, startedAt);
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
    const row = await trackingRepository.insertAttribution(tx, {
      call_id: e.callId,
      company_id: e.companyId,
      number_id: e.numberId,
      number,
      from_number: e.from,
      started_at: startedAt,
      is_first_contact: firstContact,
      lead_id: lead.id,
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
      duration_s: durationS,
    });
    // The call's attribution is announced in the same transaction (the outbox): a crash cannot lose it.
    if (row) emitted = await events.emit(tx, 'call.attributed', { ...attributedPayload(row), ...adIdsPayload(session) });
    if (row) await leadsRepository.countLeadCall(tx, lead.id, startedAt);
    if (row && session) {
      await trackingRepository.bumpSessionCalls(tx, session.id);
      await trackingRepository.setSessionsLead(tx, e.companyId, session.visitor_id, lead.id);
    }
    return row;
  });
  // Whether this delivery's insert won or not, a later event of the call may have arrived meanwhile
  // and lost its insert to this one (or this one to an earlier one): bring the row to the call's state now.
  await syncAttributionState(ctx, e);
  if (!stored) return; // another node saw it first
  // The live feed hears of it from the `tracking.live` consumer of the recorded `call.attributed`.
  await events.dispatch(ctx, emitted);
}

/**
 * `dni call matched` (the real-time feed, `DniFeedCall`) on `company.{companyId}` as a consumer of the recorded
 * `call.attributed` (one announcement per change): the stored attribution with its pool's name. Registered by the
 * module's setup.
 */
export async function onCallAttributedLive(ctx: AppContext, e: DomainEvents['call.attributed']): Promise<void> {
  const row = await trackingRepository.findAttribution(ctx.db, e.companyId, e.callId);
  if (row) ctx.realtime.send(`company.${e.companyId}`, 'dni call matched', toFeedCall(row, row.pool_name));
}

/** Handler of `message.received`: the sender's lead counts the text (once per carrier message). */
export async function onMessageReceived(ctx: AppContext, e: DomainEvents['message.received']): Promise<void> {
  if (!/^\+\d{6,15}$/.test(e.from)) return; // a short code or alphanumeric sender is no person to group
  const at = asDate(e.receivedAt);
  await ctx.db.transaction().execute(async (tx) => {
    const fresh = await trackingRepository.insertText(tx, {
      carrier_sid: e.carrierSid,
      company_id: e.companyId,
      lead_id: null,
      from_number: e.from,
      number_id: e.numberId,
      at,
    });
    if (!fresh) return;
    const lead = await trackingRepository.upsertLead(tx, e.companyId, e.from, at, 'text');
    await trackingRepository.setTextLead(tx, e.carrierSid, lead.id);
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
