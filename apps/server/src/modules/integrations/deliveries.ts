/**
 * Deliveries (docs/integrations.md "Deliveries"): consumers of the domain events turn calls, texts and outcomes into
 * rows of `ad_integration_deliveries` (one per integration and delivery key: at least once, idempotent — a replayed
 * event adds nothing), and the `integrations.send` job sends them, never on the call path:
 * - `call.attributed` keeps the call's touch (its marketing attribution) for later deliveries;
 * - `call.changed` of a finished live call → `call` / `lead` / `missed-call` per the integration's settings (a
 *   voicemail → `voicemail`);
 * - `call.annotated` → `outcome` the first time an outcome the settings send is set, `outcome-adjustment` (with the
 *   earlier one as `previous`) each later change: an adjustment, never a duplicate;
 * - `message.received` → `text`.
 * The job claims due rows of one integration (≤ the adapter's maxBatch, leased 60 s: a crashed run's rows are sent
 * again after that — crash-safe through pg-boss and a sweep every 15 s), waits for the provider's rate limit
 * (in-process window per app or integration), builds each item once (frozen in the row: identical on every retry),
 * sends, and records the provider's answer and the HTTP exchanges. A 429 puts the rows back with the provider's
 * Retry-After (never dropped, not counted as a failure); a transient failure retries with backoff (1 min × 2^n, at most
 * 6 h, failed after 12 tries); a permanent refusal is `rejected`; a lost grant makes the integration `needs_reconnect`
 * and the rows `waiting` until it is reconnected.
 */
import { CALL_OUTCOMES, DEPARTMENT_TYPES } from '@switchboard/contracts';
import { CALL_STATUS } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import type { DomainEvents, EventMeta } from '../../platform/events/index.js';
import { NotFoundError } from '../../platform/http/errors.js';
import { callsForFacts, voicemailsPage, type CallForFacts } from '../calls/calls.service.js';
import { callRecordingView, storedRecordingKey } from '../calls/recordings.js';
import { getContactsByIds } from '../contacts/contacts.service.js';
import { getEavValuesMany } from '../custom-fields/custom-fields.service.js';
import { getCompanyNumber } from '../numbers/numbers.service.js';
import { readCallVoicemailTranscript, readTranscript } from '../transcription/transcription.service.js';
import { connectionOf, markNeedsReconnect, type Exchange } from './connection.js';
import { integrationsRepository, type DeliveryRow, type IntegrationRow } from './integrations.repository.js';
import { settingsOf } from './settings.js';
import type { CallOutcome, DeliveryItem, DeliveryKind, DepartmentType, IntegrationSettings, ProviderAdapter } from './providers/provider.js';
import { PermanentProviderError, RateLimitedError, ReconnectNeededError } from './providers/provider.js';
import { providerModule } from './registry.js';

export const SEND_JOB = 'integrations.send';
/** Timings; tests shorten them. */
export const deliveryTuning = {
  leaseMs: 60_000,
  retryBaseMs: 60_000,
  retryMaxMs: 6 * 3600_000,
  maxAttempts: 12,
  sweepMs: 15_000,
  callDelayMs: 0,
  /** How long a delivery to a provider that shows the call's media waits for a recording or transcript in progress. */
  mediaWaitMs: 5 * 60_000,
  /** How often such a delivery looks again (a settled transcript also wakes it: `transcript.changed`). */
  mediaPollMs: 15_000,
  /** Validity of the signed recording links sent to providers (the port's "valid ~7 days"). */
  recordingUrlTtlMs: 7 * 24 * 3600_000,
};

/** Custom-field entity type of calls (spec 001 §3: Call 6). */
const CALL_ENTITY = 6;

// ─── Rate limits (per process) ──────────────────────────────────────────────────────────────────────────────

/** Sliding windows of recent requests per provider (scope app) or integration, in this process. */
class RateWindows {
  private readonly windows = new Map<string, number[]>();
  /** Ms to wait before one more request under `adapter.rateLimit` (0 = go now, and the slot is taken). */
  take(adapter: ProviderAdapter, integrationId: number): number {
    const { requests, perMs, scope } = adapter.rateLimit;
    const key = scope === 'app' ? adapter.id : `${adapter.id}:${integrationId}`;
    const now = Date.now();
    const w = (this.windows.get(key) ?? []).filter((t) => now - t < perMs);
    this.windows.set(key, w);
    if (w.length >= requests) return perMs - (now - w[0]!) + 5;
    w.push(now);
    return 0;
  }
}
const rateWindows = new RateWindows();
/** Ms to wait before one more request to the provider (0 = go now, and the slot is taken). Per process: docs/integrations.md "Rate limits". */
export function takeRateSlot(adapter: ProviderAdapter, integrationId: number): number {
  return rateWindows.take(adapter, integrationId);
}

/** Enqueues a send pass for an integration (now or at `at`). */
export async function scheduleSend(ctx: AppContext, integrationId: number, at?: Date): Promise<void> {
  const slot = Math.floor((at?.getTime() ?? Date.now()) / 250);
  await ctx.queue.enqueue(
    SEND_JOB,
    { integrationId },
    { singletonKey: `integrations-${integrationId}-${slot}`, retryLimit: 5, retryDelay: 5, ...(at ? { startAfter: at } : {}) },
  );
}

// ─── Consumers ──────────────────────────────────────────────────────────────────────────────────────────────

/**
 * `call.attributed` (a round's events together): keep the touches; a call that already ended (a short call ends before tracking attributes it) gets
 * its deliveries now, with the touch (first contact, click ids).
 */
export async function onCallsAttributed(ctx: AppContext, items: ReadonlyArray<{ payload: DomainEvents['call.attributed'] }>): Promise<void> {
  await integrationsRepository.saveTouches(
    ctx.db,
    items.map(({ payload: p }) => ({ callId: p.callId, companyId: p.companyId, touch: p as unknown as Record<string, unknown> })),
  );
  const ended = (
    await callsForFacts(
      ctx,
      items.map((i) => i.payload.callId),
    )
  ).filter((c) => c.ended_at);
  const active = new Map<number, Awaited<ReturnType<typeof integrationsRepository.activeOf>>>();
  for (const call of ended) {
    if (!active.has(call.company_id)) active.set(call.company_id, await integrationsRepository.activeOf(ctx.db, call.company_id));
    const integrations = active.get(call.company_id)!;
    if (integrations.length) await enqueueCallDeliveries(ctx, integrations, call.id, 'event');
  }
}

function matchesFilters(s: IntegrationSettings, numberId: number, touch: Record<string, unknown> | undefined): boolean {
  if (s.filters.numberIds.length && !s.filters.numberIds.includes(numberId)) return false;
  if (s.filters.poolIds.length && !s.filters.poolIds.includes(Number(touch?.poolId))) return false;
  if (s.filters.sources.length) {
    const src = [touch?.source, touch?.trafficSource].filter((x): x is string => typeof x === 'string').map((x) => x.toLowerCase());
    if (!s.filters.sources.some((f) => src.includes(f.toLowerCase()))) return false;
  }
  return true;
}

async function addAndSchedule(ctx: AppContext, rows: Parameters<typeof integrationsRepository.addDeliveries>[1]): Promise<void> {
  const ids = await integrationsRepository.addDeliveries(ctx.db, rows);
  if (!ids.length) return;
  for (const integrationId of new Set(rows.map((r) => r.integration_id))) {
    await scheduleSend(ctx, integrationId, deliveryTuning.callDelayMs ? new Date(Date.now() + deliveryTuning.callDelayMs) : undefined);
  }
}

/** The delivery kinds a finished call makes for one integration. */
function callKinds(
  s: IntegrationSettings,
  adapter: ProviderAdapter,
  c: { status: number; answered: boolean; voicemail: boolean; durationS: number; firstContact: boolean; qualification: number | null },
): DeliveryKind[] {
  const out: DeliveryKind[] = [];
  const long = s.events.minDurationS === null || c.durationS >= s.events.minDurationS;
  const qualified = c.qualification === 1 || c.qualification === 3;
  if (long && (s.events.anyCall || (s.events.firstCall && c.firstContact) || (s.events.qualifiedCall && qualified))) out.push('call');
  if (s.events.lead && c.firstContact) out.push('lead');
  if (c.voicemail && s.events.voicemail) out.push('voicemail');
  else if (!c.answered && s.events.missedCall) out.push('missed-call');
  return out.filter((k) => adapter.kinds.includes(k));
}

/** `call.changed`: a finished live call → its deliveries. */
export async function onCallChanged(ctx: AppContext, p: DomainEvents['call.changed']): Promise<void> {
  if (p.history || !p.endedAt) return;
  // Tracking attributes every inbound call once (`call.attributed`), after its first change: a short call can end
  // first. Its deliveries then wait for the touch (onCallsAttributed), so first contact and click ids are known.
  if (!(await integrationsRepository.touchOf(ctx.db, p.callId))) return;
  const integrations = await integrationsRepository.activeOf(ctx.db, p.companyId);
  if (!integrations.length) return;
  await enqueueCallDeliveries(ctx, integrations, p.callId, 'event');
}

/** Adds the call deliveries of `callId` for `integrations` (events and backfill). */
export async function enqueueCallDeliveries(ctx: AppContext, integrations: IntegrationRow[], callId: number, source: DeliveryRow['source']): Promise<void> {
  const [call] = await callsForFacts(ctx, [callId]);
  if (!call || !call.ended_at) return;
  const touch = await integrationsRepository.touchOf(ctx.db, callId);
  const answered = call.answered_at !== null || call.status === CALL_STATUS.CONNECTED;
  const rows: Parameters<typeof integrationsRepository.addDeliveries>[1] = [];
  for (const row of integrations) {
    const adapter = providerModule(row.provider as never)?.adapter;
    if (!adapter) continue;
    const s = settingsOf(row);
    if (call.direction === 'outbound' || !matchesFilters(s, call.number_id, touch)) continue;
    const kinds = callKinds(s, adapter, {
      status: call.status,
      answered,
      voicemail: call.voicemail_id !== null,
      durationS: Number(call.duration_s ?? 0),
      firstContact: touch ? touch.isFirstContact === true : false,
      qualification: call.qualification,
    });
    for (const kind of kinds)
      rows.push({ integration_id: row.id, company_id: row.company_id, delivery_key: `${row.id}:${kind}:${callId}`, kind, call_id: callId, source });
  }
  await addAndSchedule(ctx, rows);
}

/** The call's outcome and department (its custom fields named like "outcome" / "department", spec 002 §3 values). */
async function outcomeOf(ctx: AppContext, callId: number): Promise<{ outcome: CallOutcome | null; department: DepartmentType | null }> {
  const values = (await getEavValuesMany(ctx, CALL_ENTITY, [callId])).get(callId) ?? [];
  const pick = <T extends string>(re: RegExp, allowed: readonly T[]): T | null => {
    for (const v of values) {
      if (!re.test(v.name) || typeof v.value !== 'string') continue;
      const t = v.value
        .trim()
        .toLowerCase()
        .replace(/[\s-]+/g, '_');
      if ((allowed as readonly string[]).includes(t)) return t as T;
    }
    return null;
  };
  return { outcome: pick(/outcome/i, CALL_OUTCOMES), department: pick(/department/i, DEPARTMENT_TYPES) };
}

/** `call.annotated`: an outcome set or changed → `outcome`, then `outcome-adjustment`s. */
export async function onCallAnnotated(ctx: AppContext, p: DomainEvents['call.annotated'], meta: EventMeta): Promise<void> {
  const integrations = await integrationsRepository.activeOf(ctx.db, p.companyId);
  if (!integrations.length) return;
  const { outcome } = await outcomeOf(ctx, p.callId);
  const rows: Parameters<typeof integrationsRepository.addDeliveries>[1] = [];
  for (const row of integrations) {
    const adapter = providerModule(row.provider as never)?.adapter;
    if (!adapter) continue;
    const s = settingsOf(row);
    const earlier = (await integrationsRepository.deliveriesOfCall(ctx.db, row.id, p.callId)).filter(
      (d) => d.kind === 'outcome' || d.kind === 'outcome-adjustment',
    );
    const last = earlier[earlier.length - 1];
    const lastOutcome = last
      ? (((last.item?.call as Record<string, unknown> | undefined)?.outcome as string | undefined) ?? (last.item ? null : 'pending'))
      : undefined;
    if (!last) {
      if (outcome && s.events.outcomes.includes(outcome) && adapter.kinds.includes('outcome'))
        rows.push({ integration_id: row.id, company_id: row.company_id, delivery_key: `${row.id}:outcome:${p.callId}`, kind: 'outcome', call_id: p.callId });
    } else if (lastOutcome !== outcome && adapter.kinds.includes('outcome-adjustment')) {
      // Keyed by the annotating event: a replay of the same event adds nothing.
      rows.push({
        integration_id: row.id,
        company_id: row.company_id,
        delivery_key: `${row.id}:outcome-adjustment:${p.callId}:${meta.eventId}`,
        kind: 'outcome-adjustment',
        call_id: p.callId,
      });
    }
  }
  await addAndSchedule(ctx, rows);
}

/** `message.received`: an inbound text → `text`. */
export async function onMessageReceived(ctx: AppContext, p: DomainEvents['message.received']): Promise<void> {
  if (!p.itemId) return;
  const integrations = await integrationsRepository.activeOf(ctx.db, p.companyId);
  const rows: Parameters<typeof integrationsRepository.addDeliveries>[1] = [];
  for (const row of integrations) {
    const adapter = providerModule(row.provider as never)?.adapter;
    const s = settingsOf(row);
    if (!adapter?.kinds.includes('text') || !s.events.text) continue;
    if (s.filters.numberIds.length && !s.filters.numberIds.includes(p.numberId)) continue;
    const text = { id: p.itemId, from: p.from, to: '', body: p.body.slice(0, 2000), receivedAt: new Date(p.receivedAt).toISOString() };
    rows.push({
      integration_id: row.id,
      company_id: row.company_id,
      delivery_key: `${row.id}:text:${p.itemId}`,
      kind: 'text',
      call_id: null,
      text_id: p.itemId,
      item: { text, companyId: p.companyId },
    });
  }
  await addAndSchedule(ctx, rows);
}

/**
 * `transcript.changed`: a call's transcript settled → its deliveries still waiting for it (built at send time, never
 * yet frozen) are due now instead of at their next look.
 */
export async function onTranscriptChanged(ctx: AppContext, p: DomainEvents['transcript.changed']): Promise<void> {
  if (p.state === 'loading') return;
  for (const row of await integrationsRepository.activeOf(ctx.db, p.companyId)) {
    if (await integrationsRepository.wakeUnbuilt(ctx.db, row.id, p.callId)) await scheduleSend(ctx, row.id);
  }
}

/** What a delivery can show of the call's media; `pending` while a recording is being copied or a transcript made. */
export type CallMedia = { recordingUrl: string | null; transcript: string | null; summary: string | null; pending: boolean };

/**
 * The call's media through the owning modules (calls: the stored recording or the voicemail; transcription: the
 * transcript of the recording, else of the voicemail): a signed link to the recording valid
 * `deliveryTuning.recordingUrlTtlMs` (the provider's reader is not signed in; docs/operations.md "Files"), the
 * transcript text (≤ 20,000 chars). No module produces call summaries yet: `summary` is null.
 */
export async function callMedia(ctx: AppContext, call: CallForFacts): Promise<CallMedia> {
  let pending = false;
  let recordingUrl: string | null = null;
  const sign = (key: string) => (ctx.blobs.canSign ? ctx.blobs.signedUrl(key, deliveryTuning.recordingUrlTtlMs) : null);
  const rec = await callRecordingView(ctx, call.id);
  if (rec?.state === 'stored') recordingUrl = sign(await storedRecordingKey(ctx, call.id));
  else if (rec?.state === 'pending') pending = true;
  if (!recordingUrl && call.voicemail_id !== null) {
    const [vm] = await voicemailsPage(ctx, {
      companyIds: [call.company_id],
      from: new Date(new Date(call.started_at).getTime() - 60_000),
      to: new Date(Date.now() + 60_000),
      numberIds: [call.number_id],
      afterId: call.voicemail_id - 1,
      limit: 1,
    });
    if (vm?.id === call.voicemail_id) {
      const key = ctx.blobs.keyOf(vm.recording_url);
      if (key) recordingUrl = sign(key);
      else pending = true; // still at the carrier: the copy job brings it here
    }
  }
  const q = { companyId: call.company_id, callId: call.id };
  const transcripts = [await readTranscript(ctx, q), await readCallVoicemailTranscript(ctx, q)];
  if (transcripts.some((t) => t?.state === 'loading')) pending = true;
  const text = transcripts.find((t) => t?.state === 'complete' && t.text?.trim())?.text?.trim() ?? null;
  return { recordingUrl, transcript: text ? text.slice(0, 20_000) : null, summary: null, pending };
}

// ─── Building items ─────────────────────────────────────────────────────────────────────────────────────────

function callStatusOf(c: {
  status: number;
  answered_at: Date | null;
  voicemail_id: number | null;
}): 'unknown' | 'connected' | 'rejected' | 'received' | 'missed' {
  if (c.answered_at || c.status === CALL_STATUS.CONNECTED) return 'connected';
  if (c.status === CALL_STATUS.REJECTED) return 'rejected';
  if (c.voicemail_id !== null) return 'received';
  return 'missed';
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v ? v : null;
}

/** The item of a delivery row, built from the current call, touch, contact, outcome and media (then frozen in the row). */
export async function buildItem(ctx: AppContext, row: IntegrationRow, d: DeliveryRow, previousRows: DeliveryRow[]): Promise<DeliveryItem | null> {
  const item = await buildItemOrWait(ctx, row, d, previousRows, false);
  return item === 'wait' ? null : item;
}

/**
 * {@link buildItem}, or 'wait' when `waitForMedia` and the call's recording or transcript is still being made (the
 * delivery looks again later, at most `deliveryTuning.mediaWaitMs` after it was queued).
 */
async function buildItemOrWait(
  ctx: AppContext,
  row: IntegrationRow,
  d: DeliveryRow,
  previousRows: DeliveryRow[],
  waitForMedia: boolean,
): Promise<DeliveryItem | null | 'wait'> {
  const settings = settingsOf(row);
  const kind = d.kind as DeliveryKind;
  const emptyAttribution: DeliveryItem['attribution'] = {
    source: null,
    medium: null,
    campaign: null,
    keyword: null,
    landingPage: null,
    referrer: null,
    gclid: null,
    gbraid: null,
    wbraid: null,
    msclkid: null,
    fbclid: null,
    fbc: null,
    fbp: null,
    gaClientId: null,
    gaSessionId: null,
    sessionStartedAt: null,
    clientIp: null,
    userAgent: null,
    firstTouch: null,
    lastTouch: null,
  };
  if (kind === 'text') {
    const t = (d.item?.text as DeliveryItem['text']) ?? null;
    if (!t) return null;
    return {
      kind,
      deliveryKey: d.delivery_key,
      occurredAt: t.receivedAt,
      call: null,
      text: t,
      attribution: emptyAttribution,
      contact: { id: null, firstName: null, lastName: null, name: null, email: null, phone: t.from },
      conversion: settings.conversions.text ?? null,
      previous: null,
      settings,
    };
  }
  if (!d.call_id) return null;
  const [call] = await callsForFacts(ctx, [Number(d.call_id)]);
  if (!call) return null;
  const media = await callMedia(ctx, call);
  if (waitForMedia && media.pending && Date.now() - new Date(d.created_at).getTime() < deliveryTuning.mediaWaitMs) return 'wait';
  const touch = (await integrationsRepository.touchOf(ctx.db, call.id)) ?? {};
  const { outcome, department } = await outcomeOf(ctx, call.id);
  const contact = call.contact_id ? (await getContactsByIds(ctx, call.company_id, [call.contact_id])).get(call.contact_id) : undefined;
  let numberName: string | null = null;
  try {
    numberName = (await getCompanyNumber(ctx, call.company_id, call.number_id)).label || null;
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error; // a released number: no name
  }
  const conversionKey = (kind === 'outcome' || kind === 'outcome-adjustment') && outcome ? `outcome:${outcome}` : kind;
  const conversion = settings.conversions[conversionKey] ?? (kind.startsWith('outcome') ? (settings.conversions.outcome ?? null) : null);
  const inbound = call.direction !== 'outbound';
  const first = touch.firstTouch as Record<string, unknown> | null | undefined;
  const prev =
    kind === 'outcome-adjustment'
      ? [...previousRows].reverse().find((r) => (r.kind === 'outcome' || r.kind === 'outcome-adjustment') && r.id !== d.id && r.item)
      : undefined;
  const prevCall = prev?.item?.call as Record<string, unknown> | undefined;
  return {
    kind,
    deliveryKey: d.delivery_key,
    occurredAt: kind.startsWith('outcome') ? new Date(d.created_at).toISOString() : new Date(call.started_at).toISOString(),
    call: {
      id: call.id,
      direction: inbound ? 'inbound' : 'outbound',
      callerNumber: inbound ? call.from_number : call.to_number,
      trackingNumber: inbound ? call.to_number : call.from_number,
      trackingNumberName: numberName,
      startedAt: new Date(call.started_at).toISOString(),
      durationS: Math.max(0, Math.round(Number(call.duration_s ?? 0))),
      status: callStatusOf(call),
      answered: call.answered_at !== null || call.status === CALL_STATUS.CONNECTED,
      recordingUrl: media.recordingUrl,
      transcript: media.transcript,
      summary: media.summary,
      outcome,
      departmentType: department,
      qualification: call.qualification,
      valueCents: conversion?.valueCents ?? null,
      currency: conversion?.currency ?? 'USD',
      url: `${ctx.config.publicUrl}/calls/${call.id}`,
    },
    text: null,
    attribution: {
      ...emptyAttribution,
      source: str(touch.source) ?? str(touch.trafficSource),
      medium: str(touch.medium),
      campaign: str(touch.campaign),
      keyword: str(touch.keyword),
      landingPage: str(touch.landingPage),
      referrer: str(touch.referrer),
      gclid: str(touch.gclid),
      gbraid: str(touch.gbraid),
      wbraid: str(touch.wbraid),
      msclkid: str(touch.msclkid),
      fbclid: str(touch.fbclid),
      fbc: str(touch.fbc),
      fbp: str(touch.fbp),
      gaClientId: str(touch.gaClientId),
      gaSessionId: str(touch.gaSessionId),
      sessionStartedAt: str(touch.sessionStartedAt),
      firstTouch: first ? { source: str(first.source), medium: str(first.medium), campaign: str(first.campaign), at: null } : null,
      lastTouch: touch.trafficSource
        ? { source: str(touch.source), medium: str(touch.medium), campaign: str(touch.campaign), at: new Date(call.started_at).toISOString() }
        : null,
    },
    contact: {
      id: contact ? Number(contact.id) : null,
      firstName: str(contact?.first_name),
      lastName: str(contact?.last_name),
      name: str(contact?.name),
      email: str(contact?.email),
      phone: inbound ? call.from_number : call.to_number,
    },
    conversion,
    previous: prev
      ? {
          outcome: (prevCall?.outcome as CallOutcome | null) ?? null,
          valueCents: (prevCall?.valueCents as number | null) ?? null,
          deliveryKey: prev.delivery_key,
        }
      : null,
    settings,
  };
}

// ─── Sending ────────────────────────────────────────────────────────────────────────────────────────────────

/** The `integrations.send` job: one pass over an integration's due deliveries. */
export async function runSend(ctx: AppContext, integrationId: number): Promise<void> {
  const row = await integrationsRepository.findById(ctx.db, integrationId);
  if (!row || row.state !== 'active') return;
  const adapter = providerModule(row.provider as never)?.adapter;
  if (!adapter) return;
  for (let pass = 0; pass < 20; pass++) {
    const wait = takeRateSlot(adapter, row.id);
    if (wait > 0) {
      await scheduleSend(ctx, row.id, new Date(Date.now() + wait));
      return;
    }
    const claimed = await integrationsRepository.claimDue(ctx.db, row.id, adapter.maxBatch, deliveryTuning.leaseMs);
    if (!claimed.length) {
      const next = await integrationsRepository.nextDueAt(ctx.db, row.id);
      if (next && next.getTime() > Date.now()) await scheduleSend(ctx, row.id, next);
      return;
    }
    const fresh = (await integrationsRepository.findById(ctx.db, row.id)) ?? row;
    if (!(await sendBatch(ctx, fresh, adapter, claimed))) return;
  }
  await scheduleSend(ctx, row.id);
}

/** Sends one claimed batch. @returns false when sending should stop for now (rate limit, reconnect). */
async function sendBatch(ctx: AppContext, row: IntegrationRow, adapter: ProviderAdapter, claimed: DeliveryRow[]): Promise<boolean> {
  const items: Array<{ d: DeliveryRow; item: DeliveryItem }> = [];
  for (const d of claimed) {
    let item = d.item && (d.item as Record<string, unknown>).deliveryKey ? (d.item as unknown as DeliveryItem) : null;
    if (!item) {
      const built = await buildItemOrWait(
        ctx,
        row,
        d,
        d.call_id ? await integrationsRepository.deliveriesOfCall(ctx.db, row.id, Number(d.call_id)) : [],
        adapter.callMedia === true,
      );
      if (built === 'wait') {
        // Not a try: back to pending, looked at again soon (or woken by the transcript's event).
        await integrationsRepository.finish(ctx.db, d.id, {
          state: 'pending',
          next_at: new Date(Date.now() + deliveryTuning.mediaPollMs),
          attempts: Math.max(0, d.attempts - 1),
          message: 'Waiting for the recording and transcript',
        });
        continue;
      }
      item = built;
      if (!item) {
        await integrationsRepository.finish(ctx.db, d.id, { state: 'skipped', message: 'The call or text no longer exists' });
        continue;
      }
      await integrationsRepository.finish(ctx.db, d.id, {
        item: item as unknown as Record<string, unknown>,
        dedup_key: adapter.dedupKey(item),
        leased_until: new Date(Date.now() + deliveryTuning.leaseMs),
      });
    }
    items.push({ d, item });
  }
  if (!items.length) return true;
  const exchanges: Exchange[] = [];
  const now = new Date();
  try {
    const conn = await connectionOf(ctx, row, adapter, exchanges);
    const answer = await adapter.deliver(
      conn,
      items.map((i) => i.item),
    );
    const byKey = new Map(answer.items.map((a) => [a.deliveryKey, a]));
    for (const { d } of items) {
      const a = byKey.get(d.delivery_key);
      await integrationsRepository.finish(ctx.db, d.id, {
        state: a ? a.result : 'delivered',
        provider_ref: a?.providerRef ?? null,
        message: a?.message ?? null,
        exchanges: exchanges as unknown[],
        sent_at: now,
      });
    }
    await integrationsRepository.update(ctx.db, row.id, {
      last_delivery_at: now,
      last_delivery_result: answer.items.some((a) => a.result === 'rejected') ? 'rejected' : 'delivered',
      last_error: null,
    });
    return true;
  } catch (error) {
    const message = (error as Error).message.slice(0, 500);
    if (error instanceof RateLimitedError) {
      const at = new Date(Date.now() + Math.max(error.retryAfterMs, 250));
      for (const { d } of items)
        await integrationsRepository.finish(ctx.db, d.id, {
          state: 'pending',
          next_at: at,
          attempts: Math.max(0, d.attempts - 1),
          message: `Rate limited: ${message}`,
          exchanges: exchanges as unknown[],
        });
      await scheduleSend(ctx, row.id, at);
      return false;
    }
    if (error instanceof ReconnectNeededError) {
      for (const { d } of items) await integrationsRepository.finish(ctx.db, d.id, { state: 'waiting', message, exchanges: exchanges as unknown[] });
      if (row.state !== 'needs_reconnect') await markNeedsReconnect(ctx, row, adapter, message);
      return false;
    }
    const permanent = error instanceof PermanentProviderError;
    for (const { d } of items) {
      const giveUp = permanent || d.attempts >= deliveryTuning.maxAttempts;
      const delay = Math.min(deliveryTuning.retryMaxMs, deliveryTuning.retryBaseMs * 2 ** Math.max(0, d.attempts - 1));
      await integrationsRepository.finish(ctx.db, d.id, {
        state: giveUp ? (permanent ? 'rejected' : 'failed') : 'pending',
        next_at: new Date(Date.now() + delay),
        message,
        exchanges: exchanges as unknown[],
      });
    }
    await integrationsRepository.update(ctx.db, row.id, {
      last_delivery_at: now,
      last_delivery_result: permanent ? 'rejected' : 'failed',
      last_error: message,
    });
    if (!permanent) await scheduleSend(ctx, row.id, new Date(Date.now() + deliveryTuning.retryBaseMs));
    return !permanent ? false : true;
  }
}

/** The sweep: schedules a send pass for every integration with due deliveries (what a crash left). */
export async function sweepDue(ctx: AppContext): Promise<void> {
  for (const id of await integrationsRepository.integrationsWithDue(ctx.db)) await scheduleSend(ctx, id);
}
