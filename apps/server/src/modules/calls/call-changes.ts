/**
 * What the calls module tells others after a call changed, once the change has committed: the
 * live event `call updated` on `company.{companyId}` (the web's call views; contracts
 * `LIVE_EVENTS`) and the domain event `call.changed` (platform/events/call-events.ts; the inbox
 * thread and any other subscriber). Every path that changes a call (the voice webhooks, the
 * browser's legs, an in-app answer) ends in {@link afterCallChange}, so they all announce alike.
 */
import type { AppContext } from '../../context.js';
import type { CallFlowStep } from '../../carriers/carrier.port.js';
import { events as domainEvents } from '../../platform/events/index.js';
import { callsRepository, type CallRow } from './calls.repository.js';

/** A call's new state to announce: company, call id and its status code (foundation §3). */
export type CallChange = { companyId: number; id: number; status: number };

/**
 * What a voice webhook answers (`steps`), plus what to announce after commit: `changed` (the
 * call's new state), `after` (more live events, e.g. in-app ringing) and `call` (the changed
 * call's row as committed, when the webhook has it, so the announcement need not read it again).
 */
export type VoiceOutcome = { steps: CallFlowStep[]; changed?: CallChange; after?: () => void; call?: CallRow };

/** Publishes the live event `call updated` on the company channel (after commit). A no-op without a change. */
export function publishCallUpdated(ctx: AppContext, changed: CallChange | undefined): void {
  if (changed) ctx.realtime.send(`company.${changed.companyId}`, 'call updated', { id: changed.id, status: changed.status });
}

/**
 * After commit: announces the call's current state as the domain event `call.changed`, so other
 * modules (the inbox thread) reflect it without the calls module knowing them. Reads the call
 * and its voicemail unless `known` is the row just committed with that status (a new call).
 */
export async function announceCallChanged(ctx: AppContext, changed: CallChange | undefined, known?: CallRow): Promise<void> {
  // A call the webhook has just stored (`known`, as committed) has no voicemail yet: no reads needed.
  const fresh = known && changed && known.id === changed.id && known.status === changed.status;
  const call = fresh ? known : changed ? await callsRepository.find(ctx.db, changed.id) : undefined;
  if (!call) return;
  const vm = fresh ? undefined : await callsRepository.voicemailOfCall(ctx.db, call.id);
  await domainEvents.emitAfterCommit(ctx, 'call.changed', {
    callId: call.id,
    companyId: call.company_id,
    numberId: call.number_id,
    from: call.direction === 'outbound' ? call.to_number : call.from_number,
    status: call.status,
    direction: call.direction === 'outbound' ? 'outbound' : 'inbound',
    // A voicemail's length is its recording's (as in Activity and Voicemail), not the call's.
    voicemailId: vm?.id ?? null,
    durationS: vm ? vm.duration_s : call.duration_s,
    startedAt: call.started_at,
    contactId: call.contact_id,
  });
}

/**
 * The one after-commit step of every call change: `call updated` to the company, the outcome's
 * extra live events (`after`), then `call.changed` to the subscribers. Call it after commit only.
 */
export async function afterCallChange(ctx: AppContext, out: Pick<VoiceOutcome, 'changed' | 'after' | 'call'>): Promise<void> {
  publishCallUpdated(ctx, out.changed);
  out.after?.();
  await announceCallChanged(ctx, out.changed, out.call);
}

/**
 * After commit of a person's change to a call's qualification, tags or custom fields: the live
 * `call updated` to the company and the domain event `call.annotated` (the reporting store
 * reads the call again). Call it after commit only.
 */
export async function afterCallAnnotated(ctx: AppContext, call: { company_id: number; id: number; status: number }): Promise<void> {
  publishCallUpdated(ctx, { companyId: call.company_id, id: call.id, status: call.status });
  await domainEvents.emitAfterCommit(ctx, 'call.annotated', { callId: call.id, companyId: call.company_id });
}
