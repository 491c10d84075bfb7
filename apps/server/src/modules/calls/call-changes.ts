/**
 * What the calls module tells others when a call changed: the domain event `call.changed`
 * (platform/events/call-events.ts), written in the change's own transaction (the outbox) by
 * {@link recordCallChange} and dispatched after commit ({@link afterCallChange}) to its consumers, the
 * live `call updated` on `company.{companyId}` among them (`calls.live`, {@link registerCallLiveUpdates}). Every path that changes a call (the voice webhooks, the browser's legs,
 * an in-app answer) records its outcome in its transaction and announces it after commit, so they
 * all announce alike and no reaction is lost to a crash between the two.
 */
import type { AppContext } from '../../context.js';
import type { CallFlowStep } from '../../carriers/carrier.port.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { events as domainEvents, mergeEmitted, type DomainEvents, type EmitOptions, type Emitted } from '../../platform/events/index.js';
import { callsRepository, type CallRow, type VoicemailRow } from './calls.repository.js';

/** A call's new state to announce: company, call id and its status code (foundation §3). */
export type CallChange = { companyId: number; id: number; status: number };

/**
 * What a voice webhook answers (`steps`), plus what to announce: `changed` (the call's new state),
 * `after` (more live events after commit, e.g. in-app ringing), `call` (the changed call's row as
 * written, when the webhook has it, so the announcement need not read it again) and `emitted` (the
 * domain events recorded in the transaction by {@link recordCallChange}).
 */
export type VoiceOutcome = { steps: CallFlowStep[]; changed?: CallChange; after?: () => void; call?: CallRow; emitted?: Emitted };

/** Publishes the live event `call updated` on the company channel (after commit). A no-op without a change. */
export function publishCallUpdated(ctx: AppContext, changed: CallChange | undefined): void {
  if (changed) ctx.realtime.send(`company.${changed.companyId}`, 'call updated', { id: changed.id, status: changed.status });
}

/** The `call.changed` payload of a call row and its voicemail (if any). */
export function callChangedPayload(call: CallRow, vm: Pick<VoicemailRow, 'id' | 'duration_s'> | undefined): DomainEvents['call.changed'] {
  return {
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
    endedAt: call.ended_at,
    contactId: call.contact_id,
  };
}

/**
 * Inside the change's transaction `tx`: writes the domain event `call.changed` with the call's
 * current state (read through `tx` unless `out.call` is the row just written with that status, a
 * new call, which has no voicemail yet). `options.leaseTo` when the caller dispatches it after commit
 * ({@link afterCallChange}; see `EmitOptions`). @returns `out` with `emitted` set (nothing without a change).
 */
export async function recordCallChange<T extends Pick<VoiceOutcome, 'changed' | 'call' | 'emitted'>>(
  tx: DbOrTx,
  out: T,
  options: EmitOptions = {},
): Promise<T & { emitted?: Emitted }> {
  const changed = out.changed;
  if (!changed) return out;
  const known = out.call;
  const fresh = known && known.id === changed.id && known.status === changed.status;
  const call = fresh ? known : await callsRepository.find(tx, changed.id);
  if (!call) return out;
  const vm = fresh ? undefined : await callsRepository.voicemailOfCall(tx, call.id);
  const emitted = await domainEvents.emit(tx, 'call.changed', callChangedPayload(call, vm), options);
  return { ...out, emitted: mergeEmitted(out.emitted, emitted) };
}

/**
 * The one after-commit step of every call change: `call updated` to the company, the outcome's
 * extra live events (`after`), then the dispatch of the domain events the transaction recorded
 * ({@link recordCallChange}). Call it after commit only.
 */
export async function afterCallChange(ctx: AppContext, out: Pick<VoiceOutcome, 'changed' | 'after' | 'emitted'>): Promise<void> {
  out.after?.();
  // `call updated` goes out from the `calls.live` consumer of the recorded event (one announcement per change).
  if (out.emitted) await domainEvents.dispatch(ctx, out.emitted);
  else publishCallUpdated(ctx, out.changed);
}

/**
 * Inside the transaction of a person's change to a call's qualification, tags or custom fields:
 * records the domain event `call.annotated` (the reporting store reads the call again).
 */
export function recordCallAnnotated(tx: DbOrTx, call: { company_id: number; id: number }): Promise<Emitted> {
  return domainEvents.emit(tx, 'call.annotated', { callId: call.id, companyId: call.company_id });
}

/** After commit of an annotation: the dispatch of `call.annotated` (its `calls.live` consumer sends `call updated`). */
export async function afterCallAnnotated(ctx: AppContext, _call: { company_id: number; id: number; status: number }, emitted: Emitted): Promise<void> {
  await domainEvents.dispatch(ctx, emitted);
}

/**
 * The live announcement of call changes as a consumer of the recorded events (issue "one announcement per
 * change"): `call updated` {id, status} on `company.{companyId}` for every `call.changed` (not a past call imported
 * as history) and `call.annotated`. Registered first among the call's consumers by the calls module's setup, so
 * the web hears what the outbox recorded, right after the commit (the dispatch in the emitting process).
 */
export function registerCallLiveUpdates(): void {
  domainEvents.consume('calls.live', 'call.changed', (ctx, e) => {
    if (!e.history) ctx.realtime.send(`company.${e.companyId}`, 'call updated', { id: e.callId, status: e.status });
  });
  domainEvents.consume('calls.live', 'call.annotated', async (ctx, e) => {
    const call = await callsRepository.find(ctx.db, e.callId);
    if (call) ctx.realtime.send(`company.${e.companyId}`, 'call updated', { id: call.id, status: call.status });
  });
}
