/**
 * The inbound-reply hook: the one synchronous question the messaging module asks a higher module
 * (campaigns) inside the inbound webhook's transaction — "is this a reply to one of yours, and
 * must it stay out of the inbox?" (spec 001 §7 "Campaigns": `skip_inbox`). Messaging cannot import
 * campaigns (campaigns sends through messaging's inbox commands), so the dependency is inverted:
 * campaigns provide the `inboundReply` hook (`ctx.hooks`) in their module setup. Reactions that may wait until after
 * commit travel as domain events instead (`message.received`, `message.status-changed`).
 */
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import type { HookFn, InboundReplyInput, InboundReplyVerdict } from '../../platform/hooks/registry.js';

export type { InboundReplyInput, InboundReplyVerdict };
/**
 * The `inboundReply` hook (platform/hooks/registry.ts; campaigns provide it with `ctx.hooks.provide` in their setup).
 * Runs inside the webhook's transaction: every read and write must go through `tx` (never
 * `ctx.db`; docs/architecture.md "Transactions never wait on the pool"). A throw rolls the webhook back.
 */
export type InboundReplyHook = HookFn<'inboundReply'>;

/**
 * Asks every registered hook, in registration order, inside `tx`. The message stays out of the
 * inbox when any hook says so; the campaign is the first one named. No hook: `{skipInbox: false, campaignId: null}`.
 */
export async function askInboundReplyHooks(ctx: AppContext, tx: DbOrTx, input: InboundReplyInput): Promise<InboundReplyVerdict> {
  const verdict: InboundReplyVerdict = { skipInbox: false, campaignId: null };
  for (const hook of ctx.hooks.all('inboundReply')) {
    const v = await hook(ctx, tx, input);
    if (v.skipInbox) verdict.skipInbox = true;
    if (verdict.campaignId === null && v.campaignId !== null) verdict.campaignId = v.campaignId;
  }
  return verdict;
}
