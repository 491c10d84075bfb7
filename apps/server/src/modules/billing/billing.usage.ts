/**
 * Metered usage (docs/billing.md "Usage"): recorded into `billing_usage` from the owning modules' domain events,
 * one row per source (a call, a message) so a repeated event changes nothing, and numbers held per UTC day from the
 * numbers module's published read function. Each change sends `billing usage updated` on `company.{companyId}`.
 * - call minutes by direction: `call.changed` with a duration → ceil(seconds / 60) minutes (a voicemail counts its length);
 * - SMS segments and MMS messages: `message.received` (inbound) and `message.status-changed` (outbound, once handed
 *   to the carrier), the item read through conversations' reporting query (`messagesPage`) for its body and media;
 * - numbers held: `activeNumbersOf` once per day (the billing tick), on `number.batch-finished` and on each usage read.
 * - fax pages: `fax.changed` once the fax is delivered (outbound) or received (inbound), its pages (one row per fax);
 * - caller-name lookups: `caller-id.looked-up` answered by the provider (not the cache), once per company, number
 *   and UTC day (the event carries no id; the cache answers repeats anyway);
 * - transcription minutes: `transcript.changed` complete with its audio length → ceil(seconds / 60) per transcript;
 * - 10DLC registration fees: `sms-verification.submitted`, one row per fee of a submit (quantity in cents).
 */
import { smsSegments } from '@switchboard/domain';
import { BILLING_USAGE_UPDATED, type Usage } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import type { DomainEvents } from '../../platform/events/registry.js';
import type { EventMeta } from '../../platform/events/bus.js';
import { messagesPage } from '../conversations/conversations.reporting.js';
import { activeNumbersOf } from '../numbers/numbers.reporting.js';
import type { NewRow } from '../../platform/db/schema.js';
import { billingRepository as repo, type PlanRow, type UsageKind } from './billing.repository.js';
import { overageLines, periodDays, projectedExtraNumbers, utcDay, type PeriodUsage } from './billing.pricing.js';

function announce(ctx: AppContext, companyId: number): void {
  ctx.realtime.send(`company.${companyId}`, BILLING_USAGE_UPDATED, { companyId });
}

async function record(ctx: AppContext, companyId: number, kind: UsageKind, source: string, quantity: number, at: Date): Promise<void> {
  if (await repo.recordUsage(ctx.db, { company_id: companyId, kind, source, quantity, occurred_at: at })) announce(ctx, companyId);
}

/** Records usage rows (each source once) and tells each company whose usage changed. */
async function recordMany(ctx: AppContext, rows: ReadonlyArray<NewRow<'billing_usage'>>): Promise<void> {
  for (const companyId of await repo.recordUsages(ctx.db, rows)) announce(ctx, companyId);
}

/** `call.changed` (a round's events together): the calls' billable minutes (rounded up per call) by direction. */
export async function onCallsChanged(ctx: AppContext, items: ReadonlyArray<{ payload: DomainEvents['call.changed'] }>): Promise<void> {
  const rows: Array<NewRow<'billing_usage'>> = [];
  for (const { payload: e } of items) {
    if (e.history) continue; // a past call recorded after the fact was not carried by us
    const seconds = e.durationS ?? 0;
    if (!(seconds > 0)) continue;
    rows.push({
      company_id: e.companyId,
      kind: e.direction === 'outbound' ? 'minutes_outbound' : 'minutes_inbound',
      source: `call:${e.callId}`,
      quantity: Math.ceil(seconds / 60),
      occurred_at: e.startedAt ? new Date(e.startedAt) : new Date(),
    });
  }
  await recordMany(ctx, rows);
}

/** The usage rows of inbox messages (an SMS's segments or one MMS), read through conversations' reporting query. */
async function itemUsages(
  ctx: AppContext,
  wanted: ReadonlyArray<{ companyId: number; itemId: number }>,
  inbound: boolean,
): Promise<Array<NewRow<'billing_usage'>>> {
  if (wanted.length === 0) return [];
  const companyOf = new Map(wanted.map((w) => [w.itemId, w.companyId]));
  const items = await messagesPage(ctx, {
    companyIds: [...new Set(wanted.map((w) => w.companyId))],
    from: new Date(0),
    to: new Date(8.64e15),
    afterId: 0,
    limit: companyOf.size,
    ids: [...companyOf.keys()],
  });
  return items
    .filter((m) => companyOf.get(m.id) === m.company_id && m.is_inbound === inbound)
    .map((m) =>
      m.media_count > 0
        ? { company_id: m.company_id, kind: 'mms_messages' as const, source: `item:${m.id}`, quantity: 1, occurred_at: m.created_at }
        : {
            company_id: m.company_id,
            kind: 'sms_segments' as const,
            source: `item:${m.id}`,
            quantity: Math.max(1, smsSegments(m.body ?? '').segments),
            occurred_at: m.created_at,
          },
    );
}

/** `message.received` (a round's events together): each inbound SMS (its segments) or MMS (one message). */
export async function onMessagesReceived(ctx: AppContext, items: ReadonlyArray<{ payload: DomainEvents['message.received'] }>): Promise<void> {
  const inInbox = items.flatMap(({ payload: e }) => (e.itemId !== null ? [{ companyId: e.companyId, itemId: e.itemId }] : []));
  // Kept out of the inbox (a skip_inbox campaign reply): its body is in the event; media unknown, counted as SMS.
  const outside = items
    .filter(({ payload: e }) => e.itemId === null)
    .map(({ payload: e }) => ({
      company_id: e.companyId,
      kind: 'sms_segments' as const,
      source: `sid:${e.carrierSid}`,
      quantity: Math.max(1, smsSegments(e.body).segments),
      occurred_at: new Date(e.receivedAt),
    }));
  await recordMany(ctx, [...(await itemUsages(ctx, inInbox, true)), ...outside]);
}

/** `message.status-changed` (a round's events together): outbound messages handed to the carrier (a carrier SID, not failed). */
export async function onMessagesStatus(ctx: AppContext, items: ReadonlyArray<{ payload: DomainEvents['message.status-changed'] }>): Promise<void> {
  const sent = items
    .map((i) => i.payload)
    .filter((e) => e.carrierSid && e.state !== 'failed' && e.state !== 'undelivered')
    .map((e) => ({ companyId: e.companyId, itemId: e.itemId }));
  await recordMany(ctx, await itemUsages(ctx, sent, false));
}

/** Fax statuses after which a fax's pages are billed (docs/fax.md status words). */
const BILLED_FAX_STATUSES = new Set(['delivered', 'received']);

/** `fax.changed`: a delivered or received fax's pages (a fax that failed is not billed). */
export async function onFaxChanged(ctx: AppContext, e: DomainEvents['fax.changed']): Promise<void> {
  if (!BILLED_FAX_STATUSES.has(e.status) || !(e.pages && e.pages > 0)) return;
  await record(ctx, e.companyId, 'fax_pages', `fax:${e.faxId}`, e.pages, new Date());
}

/** `caller-id.looked-up`: a lookup the provider answered (found or not), once per company, number and UTC day. */
export async function onCallerIdLookedUp(ctx: AppContext, e: DomainEvents['caller-id.looked-up'], meta?: EventMeta): Promise<void> {
  if (e.source !== 'provider') return;
  // The event's own time, so a redelivery or a replay on a later day meters the same day's lookup.
  const now = meta?.at ?? new Date();
  await record(ctx, e.companyId, 'lookups', `lookup:${e.companyId}:${e.e164}:${utcDay(now)}`, 1, now);
}

/** `transcript.changed`: a completed transcript's audio, rounded up to whole minutes. */
export async function onTranscriptChanged(ctx: AppContext, e: DomainEvents['transcript.changed']): Promise<void> {
  if (e.state !== 'complete' || !(e.audioS && e.audioS > 0)) return;
  await record(ctx, e.companyId, 'transcription_minutes', `transcript:${e.transcriptId}`, Math.ceil(e.audioS / 60), new Date());
}

/** `sms-verification.submitted`: the submit's fees (cents), once per campaign, submit time and fee. */
export async function onSmsVerificationSubmitted(ctx: AppContext, e: DomainEvents['sms-verification.submitted']): Promise<void> {
  const at = new Date(e.submittedAt);
  for (const fee of e.fees)
    if (fee.amountCents > 0) await record(ctx, e.companyId, 'registration_fees', `sms-fee:${e.campaignId}:${e.submittedAt}:${fee.code}`, fee.amountCents, at);
}

/** Records today's count of numbers held by each company (the highest of the day is kept). */
export async function snapshotNumbers(ctx: AppContext, companyIds: readonly number[], now = new Date()): Promise<void> {
  if (companyIds.length === 0) return;
  const counts = new Map<number, number>(companyIds.map((c) => [c, 0]));
  for (const n of await activeNumbersOf(ctx, companyIds)) counts.set(n.company_id, (counts.get(n.company_id) ?? 0) + 1);
  for (const [c, n] of counts) await repo.recordNumberDay(ctx.db, c, utcDay(now), n);
}

/** `number.batch-finished`: the company's numbers changed. */
export async function onNumbersChanged(ctx: AppContext, e: DomainEvents['number.batch-finished']): Promise<void> {
  await snapshotNumbers(ctx, [e.companyId]);
  announce(ctx, e.companyId);
}

/** The usage of [from, to) in the units billed: minutes, messages (SMS segments + MMS), number-days above the plan's. */
export async function periodUsage(
  ctx: AppContext,
  companyId: number,
  plan: PlanRow,
  from: Date,
  to: Date,
): Promise<PeriodUsage & { totals: Map<UsageKind, number>; numberDays: number }> {
  const totals = await repo.usageTotals(ctx.db, companyId, from, to);
  const days = await repo.numberDays(ctx.db, companyId, utcDay(from), utcDay(to), plan.included_numbers);
  const n = (k: UsageKind) => totals.get(k) ?? 0;
  return {
    totals,
    minutes: n('minutes_inbound') + n('minutes_outbound'),
    messages: n('sms_segments') + n('mms_messages'),
    numberDaysOver: days.over,
    numberDays: days.total,
    days: periodDays(from, to),
    faxPages: n('fax_pages'),
    lookups: n('lookups'),
    transcriptionMinutes: n('transcription_minutes'),
    registrationFeesCents: n('registration_fees'),
  };
}

/** The current period's usage (GET usage): counts, included amounts, the daily series and the overage so far. */
export async function currentUsage(ctx: AppContext, companyId: number, plan: PlanRow, from: Date, to: Date, now = new Date()): Promise<Usage> {
  await snapshotNumbers(ctx, [companyId], now);
  const u = await periodUsage(ctx, companyId, plan, from, to);
  const current = (await activeNumbersOf(ctx, [companyId])).length;
  const overage = overageLines(plan, u).map((l) => ({
    kind: l.kind,
    description: l.description,
    quantity: l.quantity,
    unitCents: l.unit_cents,
    amountCents: l.amount_cents,
  }));
  const n = (k: UsageKind) => u.totals.get(k) ?? 0;
  const months = plan.interval === 'year' ? 12 : 1;
  return {
    periodStart: from.toISOString(),
    periodEnd: to.toISOString(),
    numbers: {
      current,
      included: plan.included_numbers,
      numberDays: u.numberDays,
      numberDaysOver: u.numberDaysOver,
      periodDays: u.days,
      unitCents: plan.number_overage_cents,
      projectedExtra: projectedExtraNumbers(u, current, plan.included_numbers, now, to),
    },
    minutes: { inbound: n('minutes_inbound'), outbound: n('minutes_outbound'), included: plan.included_minutes * months },
    messages: { smsSegments: n('sms_segments'), mmsMessages: n('mms_messages'), included: plan.included_messages * months },
    metered: { faxPages: n('fax_pages'), lookups: n('lookups'), transcriptionMinutes: n('transcription_minutes') },
    daily: await repo.usageDaily(ctx.db, companyId, from, to),
    overage,
    overageCents: overage.reduce((s, l) => s + l.amountCents, 0),
  };
}
