/**
 * Campaign counters and what moves them (spec 001 §3 Campaign counters, §7 "Campaigns"): the
 * carrier's delivery updates for campaign messages, replies to them, and the counters recomputed
 * from the recipient ledger (no hot-row increments) and published as `campaigns updated` on
 * `campaigns.{companyId}` at most every `publishIntervalMs` per campaign.
 */
import { classifyKeyword, parsePhone } from '@switchboard/domain';
import type { MessageStatusEvent } from '../../carriers/carrier.events.js';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { events, type DomainEvents } from '../../platform/events/index.js';
import type { WebhookOutcome } from '../../platform/http/webhooks.js';
import { applyDeliveryUpdate } from '../conversations/conversations.commands.js';
import { type InboundReplyHook, type InboundReplyInput, type InboundReplyVerdict } from '../messaging/messaging.hooks.js';
import { campaignsRepository as repo, isCampaignReply, type CampaignRow } from './campaigns.repository.js';
import { STATE_RANK, campaignRuntime } from './campaigns.runtime.js';
import { publishCampaign } from './campaigns.views.js';

/** Recomputes the counters from the ledger, stores them on the campaign and publishes `campaigns updated`. */
export async function refreshCampaignCounters(ctx: AppContext, campaignId: number): Promise<CampaignRow | undefined> {
  const counters = await repo.counters(ctx.db, campaignId);
  const row = await repo.update(ctx.db, campaignId, counters);
  if (row) publishCampaign(ctx, row);
  return row;
}

const pendingRefresh = new WeakMap<AppContext, Map<number, { timer: NodeJS.Timeout; again: boolean }>>();
/** How long the last counters refresh of a campaign took (ms): the next one waits at least 10× that. */
const refreshCost = new Map<number, number>();

/**
 * Throttled `refreshCampaignCounters`: at most one per campaign every `publishIntervalMs` (≤ 4/s) per
 * process, or every 10× the last refresh's duration when that is longer (a 100,000-recipient ledger
 * is not recounted 4 times a second while it is being sent). A call while a refresh is pending marks
 * it to run once more afterwards, so a change committed just after the pending refresh read the
 * ledger is never left out of the counters.
 */
export function scheduleCampaignRefresh(ctx: AppContext, campaignId: number): void {
  let timers = pendingRefresh.get(ctx);
  if (!timers) pendingRefresh.set(ctx, (timers = new Map()));
  const pending = timers.get(campaignId);
  if (pending) {
    pending.again = true;
    return;
  }
  const entry = { timer: null as unknown as NodeJS.Timeout, again: false };
  const wait = Math.max(campaignRuntime.publishIntervalMs, Math.min(5_000, 10 * (refreshCost.get(campaignId) ?? 0)));
  entry.timer = setTimeout(() => {
    const started = performance.now();
    refreshCampaignCounters(ctx, campaignId)
      .catch((e) => ctx.log.warn({ err: e, campaignId }, 'campaign counters refresh failed'))
      .finally(() => {
        refreshCost.set(campaignId, performance.now() - started);
        timers.delete(campaignId);
        if (entry.again) scheduleCampaignRefresh(ctx, campaignId);
      });
  }, wait);
  entry.timer.unref();
  timers.set(campaignId, entry);
}

/**
 * `POST /webhooks/twilio/campaigns/status?recipient={id}` (inside `handleOnce`'s transaction):
 * moves the recipient's delivery state forward only, records the SID and error code, mirrors the
 * state onto its conversation item, and after commit schedules a counters refresh and, when the
 * recipient reached a final outcome, emits `campaign.delivery-outcomes`.
 */
export async function applyCampaignStatus(ctx: AppContext, tx: DbOrTx, p: MessageStatusEvent | null, recipientId: number | null): Promise<WebhookOutcome> {
  const response = ctx.carrier.renderMessaging();
  const sid = p?.sid ?? '';
  if (!recipientId || !sid) return { response };
  const r = await repo.findRecipient(tx, recipientId, true);
  if (!r || (r.carrier_sid && r.carrier_sid !== sid)) {
    ctx.log.warn({ recipientId, sid }, 'campaign status callback for an unknown message ignored');
    return { response };
  }
  const state = p?.state ?? null;
  const code = p?.errorCode ?? null;
  const now = campaignRuntime.now();
  const patch: Parameters<typeof repo.updateRecipient>[2] = {};
  if (!r.carrier_sid) patch.carrier_sid = sid;
  if (state && (STATE_RANK[state] ?? 0) > (STATE_RANK[r.state] ?? 0) && r.state !== 'responded') {
    patch.state = state;
    if (state === 'delivered') patch.delivered_at = now;
    if (state === 'undelivered' || state === 'failed') patch.error_code = Number.isFinite(code) ? code : null;
    if (!r.sent_at) patch.sent_at = now;
  }
  if (Object.keys(patch).length) await repo.updateRecipient(tx, r.id, patch);
  // The item mirrors the ledger (it was created with the ledger's state under its row lock), so it
  // changes only when the ledger's state moved: a 'sent' callback after the record costs no item work.
  if (r.item_id && (patch.state || r.state === 'responded')) {
    await applyDeliveryUpdate(ctx, tx, { itemId: r.item_id }, { carrierSid: sid, state, errorCode: Number.isFinite(code) ? code : null });
  }
  // A final outcome reached for the first time feeds the delivery monitors (alerts consume it), recorded with the
  // ledger's change (the outbox).
  const emitted =
    patch.state === 'delivered' || patch.state === 'undelivered' || patch.state === 'failed'
      ? await events.emit(tx, 'campaign.delivery-outcomes', {
          companyId: r.company_id,
          campaignId: r.campaign_id,
          at: now.toISOString(),
          outcomes: [{ recipientId: r.id, state: patch.state, errorCode: patch.error_code ?? null }],
        })
      : undefined;
  return {
    response,
    // The conversation item's state is kept in step, but no `conversation updated` is published per
    // campaign callback: at campaign volume that fan-out would cost more than the send itself.
    afterCommit: async () => {
      scheduleCampaignRefresh(ctx, r.campaign_id);
      await events.dispatch(ctx, emitted);
    },
  };
}

/**
 * Attributes a reply from `from` to `numberId` to the latest campaign message sent there (within
 * `replyWindowMs`), inside the inbound webhook's transaction `tx` (through messaging's inbound-reply
 * hook, {@link campaignReplyHook}): any reply (a keyword too) sets `responded`, an opt-out keyword
 * (domain `classifyKeyword`: STOP, STOPALL, UNSUBSCRIBE, …) also sets `unsubscribed`; the contact
 * itself is unsubscribed by the messaging module's keyword handling. Idempotent (first times are
 * kept). The counters are refreshed after commit, on `message.received` ({@link refreshOnReply}).
 * @returns the campaign replied to (or null) and `skipInbox` true when it asked replies to stay out of the inbox.
 */
export async function recordCampaignReply(ctx: AppContext, input: InboundReplyInput, tx: DbOrTx = ctx.db): Promise<InboundReplyVerdict> {
  const now = campaignRuntime.now();
  const from = parsePhone(input.from) ?? input.from;
  const r = await repo.latestRecipientFor(tx, input.companyId, input.numberId, from, new Date(now.getTime() - campaignRuntime.replyWindowMs));
  if (!r) return { campaignId: null, skipInbox: false };
  const kind = classifyKeyword(input.body);
  const patch: Parameters<typeof repo.updateRecipient>[2] = {};
  if (!r.responded_at) {
    patch.responded_at = now;
    patch.state = 'responded';
  }
  if (kind === 'opt-out' && !r.unsubscribed_at) patch.unsubscribed_at = now;
  if (Object.keys(patch).length) await repo.updateRecipient(tx, r.id, patch);
  return { campaignId: r.campaign_id, skipInbox: r.skip_inbox };
}

/**
 * Messaging's inbound-reply hook (spec 001 §7 "Campaigns": replies and `skip_inbox`): records a
 * reply on its campaign inside the webhook's transaction and tells messaging whether to keep the
 * message out of the inbox. Registered by {@link registerCampaignReactions}.
 */
export const campaignReplyHook: InboundReplyHook = (ctx, tx, input) => recordCampaignReply(ctx, input, tx);

/** `message.received` subscriber: a reply attributed to a campaign refreshes its counters (throttled, after commit). */
export function refreshOnReply(ctx: AppContext, e: DomainEvents['message.received']): void {
  if (e.campaignId !== null) scheduleCampaignRefresh(ctx, e.campaignId);
}

/**
 * The campaigns module's reactions (its module `setup`): the inbound-reply hook in messaging and
 * the `message.received` subscription. Idempotent (the same functions are registered once).
 */
export function registerCampaignReactions(ctx: AppContext): void {
  ctx.hooks.provide('inboundReply', campaignReplyHook);
  // Only replies to a campaign get a delivery (most inbound texts answer none).
  events.consume('campaigns.counters', 'message.received', refreshOnReply, { when: isCampaignReply });
}
