/**
 * The inbound-reply hook: the one synchronous question the messaging module asks a higher module
 * (campaigns) inside the inbound webhook's transaction — "is this a reply to one of yours, and
 * must it stay out of the inbox?" (spec 001 §7 "Campaigns": `skip_inbox`). Messaging cannot import
 * campaigns (campaigns sends through messaging's inbox commands), so the dependency is inverted:
 * campaigns registers its answer here in its module setup. Reactions that may wait until after
 * commit travel as domain events instead (`message.received`, `message.status-changed`).
 */
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';

/** What the hook is told about an inbound message. `from` is E.164 when it parses as a phone number. */
export type InboundReplyInput = { companyId: number; numberId: number; from: string; body: string };
/** The hook's answer: keep the message out of the inbox (`skipInbox`), and the campaign it answers (or null). */
export type InboundReplyVerdict = { skipInbox: boolean; campaignId: number | null };
/**
 * Runs inside the webhook's transaction: every read and write must go through `tx` (never
 * `ctx.db`; docs/architecture.md "Transactions never wait on the pool"). A throw rolls the webhook back.
 */
export type InboundReplyHook = (ctx: AppContext, tx: DbOrTx, input: InboundReplyInput) => Promise<InboundReplyVerdict>;

const hooks = new Set<InboundReplyHook>();

/**
 * Registers an inbound-reply hook (call from a module's `setup`; registering the same function
 * again is a no-op, as several servers may share one process). @returns an unregister function.
 */
export function registerInboundReplyHook(hook: InboundReplyHook): () => void {
  hooks.add(hook);
  return () => {
    hooks.delete(hook);
  };
}

/**
 * Asks every registered hook, in registration order, inside `tx`. The message stays out of the
 * inbox when any hook says so; the campaign is the first one named. No hook: `{skipInbox: false, campaignId: null}`.
 */
export async function askInboundReplyHooks(ctx: AppContext, tx: DbOrTx, input: InboundReplyInput): Promise<InboundReplyVerdict> {
  const verdict: InboundReplyVerdict = { skipInbox: false, campaignId: null };
  for (const hook of [...hooks]) {
    const v = await hook(ctx, tx, input);
    if (v.skipInbox) verdict.skipInbox = true;
    if (verdict.campaignId === null && v.campaignId !== null) verdict.campaignId = v.campaignId;
  }
  return verdict;
}
