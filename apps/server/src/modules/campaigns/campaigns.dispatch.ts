/**
 * The campaign send engine (spec 001 §4 states, §7 "Campaigns", §9 limits) and its two jobs.
 *
 * - `campaigns.start` {campaignId, sendAt} (startAfter = should_be_sent_at): resolves recipients
 *   from the groups AT SEND TIME (`listGroupRecipients`, keyset-paged) into `campaign_recipients`
 *   (unique per contact, so re-running adds nothing; unsubscribed / invalid contacts are inserted as
 *   skipped and counted), moves the campaign to `sending` and enqueues dispatch work.
 * - `campaigns.dispatch` {campaignId, fromRecipientId, toRecipientId}: a chunk of the recipient
 *   ledger. Unlimited rate: one job per chunk of `chunkSize` recipients, run in parallel. Limited
 *   rate: a single lane (one job at a time, continuing itself every `sliceMs`) paced by a token
 *   bucket per number.
 *
 * Exactly once, and what happens on a crash (design choice: never send twice):
 * 1. Before calling the carrier a worker CLAIMS rows: `UPDATE … SET state='sending', claimed_at=now
 *    WHERE state='pending' … FOR UPDATE SKIP LOCKED RETURNING`. A claimed row is never claimed again.
 * 2. After the carrier answers, the SID is recorded (`state='sent'`).
 * 3. A claim with no SID older than `claimLeaseMs` means a worker died between 1 and 2. It is
 *    reconciled: when the carrier can look a message up by its (per-recipient) status callback
 *    URL (`findMessageByStatusCallback`: the sandbox can), a found message is recorded as sent and
 *    a missing one is returned to `pending` and sent again — exactly once. A carrier without that
 *    lookup gets at-most-once: the row is marked `unknown` and never re-sent (a possible loss is
 *    preferred to a duplicate text). The lease must exceed the longest carrier call.
 *
 * Pause: dispatch re-reads the campaign state before every claim, and a claim never exceeds one
 * second of sending at the configured rate, so a pause takes effect within a second. Resume
 * enqueues dispatch again from the lowest pending recipient.
 *
 * Quiet hours (docs/quiet-hours.md): a claimed recipient outside the legal window of its country
 * and state (domain `nextSendTime`: by day of week and holiday, in every zone the number may be in),
 * narrowed by the company's own window when its quiet hours are on, is returned to pending with
 * `not_before` = the next allowed time, and a dispatch job is enqueued for then. A company with
 * `quiet_hours_enabled` false drops only its own narrowing: the law's window still applies.
 * The window, zone and links switch come from `getCompanyMessagingSettings` (modules/companies).
 *
 * Throughput (docs/sms-verification.md "Throughput"): the number's approved SMS verification caps
 * the rate per second and the messages per day. The daily cap counts every campaign message of the
 * number sent (or claimed) since midnight UTC; once it is reached the lane stops and continues at
 * the next midnight UTC (the rest stays pending, the campaign `sending`).
 */
import { CampaignMergeField } from '@switchboard/contracts';
import {
  DEFAULT_QUIET_HOURS,
  MERGE_FIELDS,
  composeCampaignMessage,
  nextSendTime,
  parsePhone,
  recipientJurisdiction,
  renderMergeFields,
} from '@switchboard/domain';
import { z } from 'zod';
import type { OutboundMessage } from '../../carriers/carrier.port.js';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { events } from '../../platform/events/index.js';
import { CarrierError, NotFoundError } from '../../platform/http/errors.js';
import { getCompanyMessagingSettings } from '../companies/companies.service.js';
import { appendOutboundMessages } from '../conversations/conversations.commands.js';
import { publishConversationsUpdated } from '../conversations/conversations.live.js';
import { listGroupRecipients } from '../contacts/groups.service.js';
import { getCompanyNumber } from '../numbers/numbers.service.js';
import { campaignSendingPermit, type SendingPermit } from '../sms-verification/sms-verification.service.js';
import { campaignsRepository as repo, type CampaignRow, type RecipientRow } from './campaigns.repository.js';
import { refreshCampaignCounters, scheduleCampaignRefresh } from './campaigns.counters.js';
import { announceCampaignFinished } from './campaigns.events.js';
import { CAMPAIGN_DISPATCH_JOB, CAMPAIGN_START_JOB, STATE_RANK, campaignRuntime, iso } from './campaigns.runtime.js';

/** Enqueues a `campaigns.dispatch` job with the runtime's retry delay. */
async function enqueueDispatchJob(
  ctx: AppContext,
  data: { campaignId: number; fromRecipientId: number; toRecipientId: number | null },
  options: { startAfter?: Date } = {},
): Promise<void> {
  await ctx.queue.enqueue(CAMPAIGN_DISPATCH_JOB, data, { ...options, retryDelay: campaignRuntime.dispatchRetryDelayS });
}

/** Enqueues `campaigns.start` (inside `tx`) at the campaign's send time, or now. */
export async function enqueueStart(ctx: AppContext, row: CampaignRow, tx: DbOrTx): Promise<void> {
  const sendAt = row.should_be_sent_at;
  const delay = sendAt ? sendAt.getTime() - campaignRuntime.now().getTime() : 0;
  await ctx.queue.enqueue(CAMPAIGN_START_JOB, { campaignId: row.id, sendAt: iso(sendAt) }, delay > 0 ? { startAfter: new Date(Date.now() + delay) } : {}, tx);
}

// ---------------------------------------------------------------------------------------------
// Start job
// ---------------------------------------------------------------------------------------------

/** Contacts resolved per page at send time. */
const RESOLVE_PAGE = 5_000;
const E164 = /^\+[1-9]\d{6,14}$/;

/**
 * Job `campaigns.start`: resolves recipients (idempotent) and starts dispatch. Ignores a job
 * superseded by an edit (different `sendAt`), a paused/deleted campaign, or one not yet due.
 */
export async function startCampaign(ctx: AppContext, data: { campaignId: number; sendAt?: string | null }): Promise<void> {
  const c = await repo.findById(ctx.db, data.campaignId);
  if (!c || c.state !== 'queued') return;
  if (data.sendAt !== undefined && (data.sendAt ?? null) !== iso(c.should_be_sent_at)) return;
  const now = campaignRuntime.now();
  if (c.should_be_sent_at && c.should_be_sent_at.getTime() > now.getTime() + 1000) {
    await ctx.queue.enqueue(
      CAMPAIGN_START_JOB,
      { campaignId: c.id, sendAt: iso(c.should_be_sent_at) },
      { startAfter: new Date(Date.now() + c.should_be_sent_at.getTime() - now.getTime()) },
    );
    return;
  }
  // Sending rules (docs/sms-verification.md): a number that lost its approved registration sends no campaign.
  let permit: SendingPermit | null = null;
  try {
    if (c.number_id) permit = await campaignSendingPermit(ctx, c.company_id, c.number_id);
  } catch (e) {
    if (!(e instanceof NotFoundError)) throw e;
  }
  if (!c.number_id || !permit?.allowed) {
    if (permit && !permit.allowed) ctx.log.warn({ campaignId: c.id }, permit.message);
    const failed = await repo.transition(ctx.db, c.id, ['queued'], { state: 'failed', finished_at: now });
    if (failed) await announceCampaignFinished(ctx, failed);
    return;
  }
  if (!c.started) {
    const groups = (await repo.groupsOf(ctx.db, [c.id])).get(c.id) ?? [];
    let after = 0;
    for (;;) {
      const { contacts } = await listGroupRecipients(ctx, c.company_id, groups, { afterContactId: after, limit: RESOLVE_PAGE });
      if (!contacts.length) break;
      await repo.insertRecipients(
        ctx.db,
        contacts.map((k) => {
          // A valid contact's number is stored in E.164 already (parsed when saved): not parsed again.
          const e164 = !k.number ? null : !k.is_invalid && E164.test(k.number) ? k.number : parsePhone(k.number);
          const state = k.is_unsubscribed ? 'skipped_unsubscribed' : k.is_invalid || !e164 ? 'skipped_invalid' : 'pending';
          return {
            campaign_id: c.id,
            company_id: c.company_id,
            contact_id: k.id,
            number: e164 ?? k.number ?? '',
            state,
            merge: JSON.stringify({ name: k.name, first_name: k.first_name, last_name: k.last_name, email: k.email }),
          };
        }),
      );
      after = contacts[contacts.length - 1]!.id;
      if (contacts.length < RESOLVE_PAGE) break;
    }
  }
  const row = await ctx.db.transaction().execute(async (tx) => {
    await repo.update(tx, c.id, { started: true, started_at: c.started_at ?? now });
    return repo.transition(tx, c.id, ['queued'], { state: 'sending' });
  });
  const refreshed = await refreshCampaignCounters(ctx, c.id);
  if (row && refreshed) await enqueueDispatch(ctx, refreshed);
}

/**
 * Messages/s per number for `c`: its own rate, else the company's, else the default (0 = unlimited), capped by the
 * number's approved SMS verification limits (docs/sms-verification.md "Throughput").
 */
async function effectiveRate(ctx: AppContext, c: CampaignRow): Promise<number> {
  return (await sendingPace(ctx, c)).rate;
}

/** {@link effectiveRate} and the number's daily cap (messages per UTC day; null = none). */
async function sendingPace(ctx: AppContext, c: CampaignRow): Promise<{ rate: number; perDay: number | null }> {
  const own = c.rate_per_second ?? (await repo.companyRate(ctx.db, c.company_id)) ?? campaignRuntime.defaultRatePerSecond;
  const permit = c.number_id ? await campaignSendingPermit(ctx, c.company_id, c.number_id) : null;
  const limits = permit?.allowed ? permit.limits : null;
  const cap = limits?.per_second;
  return { rate: cap === undefined ? own : own === 0 ? cap : Math.min(own, cap), perDay: limits?.per_day ?? null };
}

const DAY_MS = 86_400_000;

/**
 * Enqueues dispatch for every pending recipient: one job per chunk (parallel) at unlimited rate, or
 * a single lane at a limited rate. Idempotent in effect: overlapping jobs only compete for claims.
 */
export async function enqueueDispatch(ctx: AppContext, c: CampaignRow): Promise<void> {
  const rate = await effectiveRate(ctx, c);
  const starts = await repo.chunkStarts(ctx.db, c.id, campaignRuntime.chunkSize);
  if (!starts.length) {
    await finishIfDone(ctx, c.id);
    return;
  }
  if (rate > 0) {
    await enqueueDispatchJob(ctx, { campaignId: c.id, fromRecipientId: starts[0]!, toRecipientId: null });
    return;
  }
  for (let i = 0; i < starts.length; i++) {
    await enqueueDispatchJob(ctx, { campaignId: c.id, fromRecipientId: starts[i]!, toRecipientId: starts[i + 1] ?? null });
  }
}

// ---------------------------------------------------------------------------------------------
// Dispatch job
// ---------------------------------------------------------------------------------------------

/** Token bucket per number (in-process, shared by every dispatch job of this process). */
class TokenBucket {
  private tokens: number;
  private last = Date.now();
  constructor(private rate: number) {
    this.tokens = Math.min(1, rate);
  }
  setRate(rate: number) {
    this.rate = rate;
  }
  /** Waits until `n` tokens are available (capacity = max(1, rate): at most one second of burst). */
  async take(n: number): Promise<void> {
    for (;;) {
      const now = Date.now();
      const capacity = Math.max(1, this.rate);
      this.tokens = Math.min(capacity, this.tokens + ((now - this.last) / 1000) * this.rate);
      this.last = now;
      if (this.tokens >= n) {
        this.tokens -= n;
        return;
      }
      await new Promise((r) => setTimeout(r, Math.ceil(((n - this.tokens) / this.rate) * 1000)));
    }
  }
}
const buckets = new Map<number, TokenBucket>();
function bucketFor(numberId: number, rate: number): TokenBucket {
  let b = buckets.get(numberId);
  if (!b) buckets.set(numberId, (b = new TokenBucket(rate)));
  b.setRate(rate);
  return b;
}

/** The per-recipient delivery-status callback URL (also the key for `findMessageByStatusCallback`). */
function statusCallbackFor(ctx: AppContext, recipientId: number): string {
  return ctx.carrier.webhookUrl('campaigns.status', { recipient: recipientId });
}

/**
 * Reconciles claims older than the lease (a worker died between claim and record): found at the
 * carrier → recorded as sent; not found → pending again (sent once more, exactly once); no lookup
 * → `unknown`, never re-sent.
 */
async function reconcileStaleClaims(ctx: AppContext, c: CampaignRow): Promise<void> {
  // A dead worker's claims (platform/queue heartbeats) are stale at once; others after the lease.
  const stale = await repo.staleClaims(ctx.db, c.id, new Date(campaignRuntime.now().getTime() - campaignRuntime.claimLeaseMs), await ctx.queue.liveWorkerIds());
  if (!stale.length) return;
  const lookup = ctx.carrier.findMessageByStatusCallback?.bind(ctx.carrier);
  const found: Array<{ id: number; sid: string; itemId: number | null }> = [];
  const retry: Array<{ id: number; notBefore: Date | null }> = [];
  const unknown: Array<{ id: number; code: number | null; state: 'unknown' }> = [];
  for (const r of stale) {
    if (!lookup) {
      unknown.push({ id: r.id, code: null, state: 'unknown' });
      continue;
    }
    const m = await lookup(statusCallbackFor(ctx, r.id));
    if (m) found.push({ id: r.id, sid: m.sid, itemId: null });
    else retry.push({ id: r.id, notBefore: null });
  }
  await repo.recordSent(ctx.db, found, campaignRuntime.now());
  await repo.unclaim(ctx.db, retry);
  await repo.recordFailed(ctx.db, unknown);
  ctx.log.warn({ campaignId: c.id, found: found.length, resent: retry.length, unknown: unknown.length }, 'campaign: reconciled stale claims');
}

/** A claimed recipient and the message rendered for it. */
type Prepared = { row: RecipientRow; message: OutboundMessage };

/**
 * Hands a batch to the carrier (its batch send, or `sendConcurrency` parallel sends). A
 * `CarrierError` is that message's failure; any other error stops the batch: what is known is
 * recorded, the rest stays claimed for reconciliation, and the error is rethrown.
 */
async function sendBatch(ctx: AppContext, prepared: Prepared[]): Promise<Array<{ sid: string } | { error: { message: string; code: number | null } }>> {
  const carrier = ctx.carrier;
  // Our media URLs are signed for the carrier, which has no session (platform/blob/access.ts).
  const messages = prepared.map((p) =>
    p.message.mediaUrls.length ? { ...p.message, mediaUrls: p.message.mediaUrls.map((u) => ctx.blobs.carrierUrl(u)) } : p.message,
  );
  if (carrier.sendMessages) return carrier.sendMessages(messages);
  const results: Array<{ sid: string } | { error: { message: string; code: number | null } }> = new Array(prepared.length);
  let next = 0;
  let fatal: unknown = null;
  const worker = async () => {
    while (next < prepared.length && !fatal) {
      const i = next++;
      try {
        results[i] = await carrier.sendMessage(messages[i]!);
      } catch (e) {
        if (e instanceof CarrierError) results[i] = { error: { message: e.message, code: (e as CarrierError & { code?: number }).code ?? null } };
        else fatal = e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(campaignRuntime.sendConcurrency, prepared.length) }, worker));
  if (fatal) {
    // Outcome unknown for the rest: record what we know, leave the others claimed for reconciliation.
    const known = results.map((r, i) => (r ? i : -1)).filter((i) => i >= 0);
    await recordResults(
      ctx,
      prepared.filter((_, i) => known.includes(i)),
      known.map((i) => results[i]!),
      null,
    );
    throw fatal;
  }
  return results;
}

/** How many conversations of each batch are announced live (the inbox's first page holds 5). */
const LIVE_CONVERSATIONS_PER_BATCH = 5;

/**
 * Records a batch's carrier outcome. Without inbox (skip_inbox, or `c` null for a partial record
 * after a fatal error) the ledger is updated with one statement per outcome. With inbox, ONE short
 * transaction of four batch statements: lock the batch's ledger rows (reading any state a delivery
 * callback already applied), append the messages to their threads with the inbox's batch command
 * (`appendOutboundMessages`: one upsert of the conversations, one insert of the items; delivery
 * state taken from the ledger so an early callback is not lost), and record SIDs and item ids in
 * the ledger. A callback arriving meanwhile
 * waits on the row lock and then finds the item. Live: one bulk `conversation updated` per batch.
 * Messages the carrier refused are announced as `campaign.delivery-outcomes` (failed) once recorded.
 */
async function recordResults(
  ctx: AppContext,
  prepared: Prepared[],
  results: Array<{ sid: string } | { error: { message: string; code: number | null } }>,
  c: CampaignRow | null,
): Promise<void> {
  const sent: Array<{ p: Prepared; sid: string }> = [];
  const failed: Array<{ id: number; code: number | null; state: 'failed' }> = [];
  results.forEach((r, i) => {
    const p = prepared[i]!;
    if ('sid' in r) sent.push({ p, sid: r.sid });
    else failed.push({ id: p.row.id, code: r.error.code, state: 'failed' });
  });
  const now = campaignRuntime.now();
  await repo.recordFailed(ctx.db, failed);
  if (failed.length) await announceRefused(ctx, prepared, results, now);
  if (!c || c.skip_inbox || !sent.length || c.number_id === null) {
    await repo.recordSent(
      ctx.db,
      sent.map((x) => ({ id: x.p.row.id, sid: x.sid, itemId: null })),
      now,
    );
    return;
  }
  const companyId = c.company_id;
  const numberId = c.number_id;
  const conversationIds = await ctx.db.transaction().execute(async (tx) => {
    const states = await repo.lockRecipients(
      tx,
      sent.map((x) => x.p.row.id),
    );
    const appended = await appendOutboundMessages(ctx, tx, {
      companyId,
      numberId,
      userId: c.user_id,
      messages: sent.map((x) => {
        const st = states.get(x.p.row.id);
        const state = st && (STATE_RANK[st.state] ?? 0) >= 3 ? (st.state === 'responded' ? 'delivered' : st.state) : 'sent';
        return {
          recipient: x.p.row.number,
          contactId: x.p.row.contact_id,
          body: x.p.message.body,
          carrierSid: x.sid,
          state,
          media: x.p.message.mediaUrls.map((url) => ({ url, contentType: 'application/octet-stream' })),
          errorCode: state === 'undelivered' || state === 'failed' ? (st?.error_code ?? null) : null,
        };
      }),
    });
    await repo.recordSent(
      tx,
      sent.map((x, i) => ({ id: x.p.row.id, sid: x.sid, itemId: appended[i]!.itemId })),
      now,
    );
    return appended.map((a) => a.conversationId);
  });
  await publishConversationsUpdated(ctx, companyId, [...new Set(conversationIds)].slice(-LIVE_CONVERSATIONS_PER_BATCH));
}

/** `campaign.delivery-outcomes` for the messages of a batch the carrier refused (`failed`, with its error code), per campaign. */
async function announceRefused(
  ctx: AppContext,
  prepared: Prepared[],
  results: Array<{ sid: string } | { error: { message: string; code: number | null } }>,
  now: Date,
): Promise<void> {
  const byCampaign = new Map<number, { companyId: number; outcomes: Array<{ recipientId: number; state: 'failed'; errorCode: number | null }> }>();
  results.forEach((r, i) => {
    if ('sid' in r) return;
    const row = prepared[i]!.row;
    let group = byCampaign.get(row.campaign_id);
    if (!group) byCampaign.set(row.campaign_id, (group = { companyId: row.company_id, outcomes: [] }));
    group.outcomes.push({ recipientId: row.id, state: 'failed', errorCode: Number.isInteger(r.error.code) ? r.error.code : null });
  });
  for (const [campaignId, g] of byCampaign)
    await events.publish(ctx, 'campaign.delivery-outcomes', { companyId: g.companyId, campaignId, at: now.toISOString(), outcomes: g.outcomes });
}

/** Renders a recipient's message: merge fields filled, the unsubscribe text appended. */
function renderFor(c: CampaignRow, r: RecipientRow): string {
  const merge = (r.merge ?? {}) as Record<string, string | null>;
  const fields = z.array(CampaignMergeField).safeParse(c.dynamic_fields);
  const text = renderMergeFields(
    c.text,
    { name: merge.name, first_name: merge.first_name, last_name: merge.last_name, email: merge.email, number: r.number },
    fields.success ? fields.data : MERGE_FIELDS,
  );
  return composeCampaignMessage(text, c.unsubscribe_text);
}

/**
 * Job `campaigns.dispatch`: sends the pending recipients with id in [fromRecipientId,
 * toRecipientId) (null = to the end). See the module doc for claims, pause, rate and quiet hours.
 * Continues itself after `sliceMs` so no job runs long.
 */
export async function dispatchChunk(ctx: AppContext, job: { campaignId: number; fromRecipientId: number; toRecipientId?: number | null }): Promise<void> {
  const deadline = Date.now() + campaignRuntime.sliceMs;
  let c = await repo.findById(ctx.db, job.campaignId);
  if (!c || c.state !== 'sending') return;
  await reconcileStaleClaims(ctx, c);
  let number;
  try {
    number = await getCompanyNumber(ctx, c.company_id, c.number_id ?? 0);
  } catch (e) {
    if (!(e instanceof NotFoundError)) throw e;
    const failed = await repo.transition(ctx.db, c.id, ['sending'], { state: 'failed', finished_at: campaignRuntime.now() });
    if (failed) await announceCampaignFinished(ctx, failed);
    return;
  }
  const settings = await getCompanyMessagingSettings(ctx, c.company_id);
  // The company's window narrows the law's (docs/quiet-hours.md); off, only the law's applies.
  const companyWindow = settings.quiet_hours_enabled
    ? { start: settings.quiet_hours_start || DEFAULT_QUIET_HOURS.start, end: settings.quiet_hours_end || DEFAULT_QUIET_HOURS.end }
    : null;
  const tz = settings.timezone || 'UTC';
  const mediaUrls = ((await repo.mediaOf(ctx.db, [c.id])).get(c.id) ?? []).map((m) => m.url);
  let from = job.fromRecipientId;
  const to = job.toRecipientId ?? null;
  /** The number's campaign messages of the current UTC day (daily cap), once counted. */
  let today: { day: number; sent: number } | null = null;

  for (;;) {
    // Pause/delete check before every claim.
    const fresh = await repo.findById(ctx.db, c.id);
    if (!fresh || fresh.state !== 'sending') return;
    c = fresh;
    if (Date.now() > deadline) {
      await enqueueDispatchJob(ctx, { campaignId: c.id, fromRecipientId: from, toRecipientId: to });
      return;
    }
    const { rate, perDay } = await sendingPace(ctx, c);
    let limit = rate > 0 ? Math.max(1, Math.min(campaignRuntime.batchSize, Math.floor(rate))) : campaignRuntime.batchSize;
    const now = campaignRuntime.now();
    if (perDay !== null && c.number_id !== null) {
      // Counted once per slice and day (one statement), then kept up to date with this lane's own claims.
      const dayStart = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
      if (!today || today.day !== dayStart.getTime()) today = { day: dayStart.getTime(), sent: await repo.sentFromNumberSince(ctx.db, c.number_id, dayStart) };
      const left = perDay - today.sent;
      if (left <= 0) {
        const wait = dayStart.getTime() + DAY_MS - now.getTime();
        ctx.log.info({ campaignId: c.id, numberId: c.number_id, perDay }, 'campaign: the number reached its daily limit; continues after midnight UTC');
        await enqueueDispatchJob(ctx, { campaignId: c.id, fromRecipientId: from, toRecipientId: to }, { startAfter: new Date(Date.now() + wait + 1000) });
        return;
      }
      limit = Math.min(limit, left);
    }
    const claimed = await repo.claim(ctx.db, c.id, { from, to }, now, limit, ctx.queue.workerId);
    if (!claimed.length) break;
    if (today) today.sent += claimed.length;
    from = claimed[claimed.length - 1]!.id + 1;

    // Quiet hours in the recipient's local time: the law of its country/state, narrowed by the company.
    // Numbers of one jurisdiction (same rules and zones) share the answer. No allowed time at all
    // (a company window outside the law's) is looked at again a day later.
    const allowed: RecipientRow[] = [];
    const deferred: Array<{ id: number; notBefore: Date }> = [];
    const windowCache = new Map<string, Date | null>();
    for (const r of claimed) {
      const key = recipientJurisdiction(r.number, tz).key;
      let nextAt = windowCache.get(key);
      if (nextAt === undefined) windowCache.set(key, (nextAt = nextSendTime(r.number, now, { companyWindow, fallbackTz: tz })));
      if (nextAt !== null && nextAt.getTime() <= now.getTime()) allowed.push(r);
      else deferred.push({ id: r.id, notBefore: nextAt ?? new Date(now.getTime() + 24 * 3_600_000) });
    }
    if (deferred.length) {
      await repo.unclaim(ctx.db, deferred);
      const byTime = new Map<number, number[]>();
      for (const d of deferred) (byTime.get(d.notBefore.getTime()) ?? byTime.set(d.notBefore.getTime(), []).get(d.notBefore.getTime())!).push(d.id);
      for (const [t, ids] of byTime) {
        const delay = t - now.getTime();
        await enqueueDispatchJob(
          ctx,
          { campaignId: c.id, fromRecipientId: Math.min(...ids), toRecipientId: Math.max(...ids) + 1 },
          { startAfter: new Date(Date.now() + Math.max(0, delay) + 1000) },
        );
      }
    }
    if (!allowed.length) continue;
    if (rate > 0) await bucketFor(number.id, rate).take(allowed.length);
    const prepared: Prepared[] = allowed.map((r) => ({
      row: r,
      message: { from: number.number, to: r.number, body: renderFor(c!, r), mediaUrls, statusCallback: statusCallbackFor(ctx, r.id) },
    }));
    if (campaignRuntime.faultHook) await campaignRuntime.faultHook(ctx, 'claimed');
    const results = await sendBatch(ctx, prepared);
    if (campaignRuntime.faultHook) await campaignRuntime.faultHook(ctx, 'sent');
    await recordResults(ctx, prepared, results, c);
    scheduleCampaignRefresh(ctx, c.id);
  }
  await finishIfDone(ctx, c.id);
}

/**
 * Marks the campaign `sent` when no recipient is pending or claimed. Open claims older than a few
 * seconds (a dead worker's) get a reconciliation pass scheduled after their lease.
 */
async function finishIfDone(ctx: AppContext, campaignId: number): Promise<void> {
  const rem = await repo.remaining(ctx.db, campaignId);
  if (rem.pending > 0) return;
  if (rem.open_claims > 0) {
    const oldest = rem.oldest_claim ? new Date(rem.oldest_claim).getTime() : campaignRuntime.now().getTime();
    const age = campaignRuntime.now().getTime() - oldest;
    if (age > 5_000 || age > campaignRuntime.claimLeaseMs) {
      const wait = Math.max(0, campaignRuntime.claimLeaseMs - age) + 500;
      await enqueueDispatchJob(ctx, { campaignId, fromRecipientId: 0, toRecipientId: null }, { startAfter: new Date(Date.now() + wait) });
    }
    return;
  }
  const done = await repo.transition(ctx.db, campaignId, ['sending'], { state: 'sent', finished_at: campaignRuntime.now() });
  // Counters refreshed (and published) before `campaign.finished` carries them.
  if (done) await announceCampaignFinished(ctx, done);
}

/** Re-runs dispatch for a sending campaign (after a clock change in tests, or an operator's nudge). */
export async function kickCampaign(ctx: AppContext, campaignId: number): Promise<void> {
  const c = await repo.findById(ctx.db, campaignId);
  if (c?.state === 'sending') await enqueueDispatch(ctx, c);
}
