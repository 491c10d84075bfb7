/**
 * Call records (spec 001 §3 "Call", §7 "GET /calls/{id}", "PATCH /calls/{id}", call tags): reading
 * a call with its history, voicemail, tags, notes, custom fields and the outside party's contact;
 * the Activity feed's calls; tags and qualification. Access: a member of the call's company (another
 * company's call answers 404).
 */
import { CALL_STATUS, EAV_ENTITY_TYPES, callStatusLabel } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import type { HookFn } from '../../platform/hooks/registry.js';
import { NotFoundError, deniedAsNotFound } from '../../platform/http/errors.js';
import { isPartyBlocked } from '../blocklist/blocklist.service.js';
import { AGENT_ROLES, assertCompanyAccess, type Role } from '../companies/companies.service.js';
import { findContactByNumber, getContactsByIds } from '../contacts/contacts.service.js';
import { conversationIdOfCall } from '../conversations/conversations.service.js';
import { getEavValues, setEavValues } from '../custom-fields/custom-fields.service.js';
import { notesOf } from '../notes/notes.service.js';
import { ensureTagsByName, tagIdsByName, tagsByIds } from '../tags/tags.service.js';
import { getCompanyNumbers } from '../numbers/numbers.service.js';
import { numberScope, scopeIncludes } from '../users/members.service.js';
import { getUserNames } from '../users/users.service.js';
import { afterCallAnnotated, recordCallAnnotated } from './call-changes.js';
import { callsRepository, type CallRow } from './calls.repository.js';
import { describeCallEvent, forwardOutcomes, userIdsOfCall } from './calls.views.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The call `id` if the user is a member (with one of `roles`) of its company and may see its
 * number (a `user`: the numbers assigned to them; docs/permissions.md "Numbers a user sees").
 * @throws NotFoundError 404 (unknown, another company's, or a number outside the caller's scope).
 */
export async function callForUser(ctx: AppContext, userId: number, id: number, roles?: Role[]): Promise<CallRow> {
  const call = await callsRepository.find(ctx.db, id);
  if (!call) throw new NotFoundError('Call');
  await deniedAsNotFound(assertCompanyAccess(ctx, userId, call.company_id, roles), 'Call');
  if (!scopeIncludes(await numberScope(ctx, userId, call.company_id), call.number_id)) throw new NotFoundError('Call');
  return call;
}

/**
 * GET /api/calls/{id}: the call with status label, history, voicemail, tags, note (the latest),
 * notes, qualification and eavAttributeValues (spec 001 "Call"). People of the company in the call (in-app
 * identities, answering, placing and transferring users) are worded by name in the history and carry `name` in
 * `forwards` (docs/calling.md "Names of people in a call"). @throws NotFoundError
 */
export async function getCall(ctx: AppContext, userId: number, id: number) {
  const call = await callForUser(ctx, userId, id);
  const party = call.direction === 'outbound' ? call.to_number : call.from_number;
  const [events, vm, tags, notes, eav, contact, numbers, conversationId, blocked] = await Promise.all([
    callsRepository.events(ctx.db, call.id),
    callsRepository.voicemailOfCall(ctx.db, call.id),
    tagsOfCall(ctx, call.id),
    notesOf(ctx, call.company_id, 'call', call.id),
    getEavValues(ctx, EAV_ENTITY_TYPES.Call, call.id),
    knownParty(ctx, call.company_id, call.contact_id, party),
    getCompanyNumbers(ctx, call.company_id, [call.number_id], { includeReleased: true }),
    conversationIdOfCall(ctx, call.id),
    isPartyBlocked(ctx, call.company_id, call.number_id, party),
  ]);
  // People in the call (rung, answering, placing, transferring) are worded by name, as the reports and CSV show them.
  const names = await getUserNames(ctx, userIdsOfCall(events, call.forwarded_to));
  return {
    contact,
    number_label: numbers[0]?.label ?? '',
    conversation_id: conversationId,
    caller_blocked: blocked,
    forwards: forwardOutcomes(events, call.ended_at !== null || call.status === CALL_STATUS.VOICEMAIL, names),
    isInbound: call.direction !== 'outbound',
    tags,
    note: notes.at(-1) ?? null,
    notes,
    qualification: call.qualification,
    eavAttributeValues: eav,
    id: call.id,
    company_id: call.company_id,
    number_id: call.number_id,
    carrier_sid: call.carrier_sid,
    from: call.from_number,
    to: call.to_number,
    from_state: call.from_state,
    direction: call.direction,
    status: call.status,
    status_label: callStatusLabel(call.status),
    extension: call.extension,
    forwarded_to: call.forwarded_to,
    duration_s: call.duration_s,
    contact_id: call.contact_id,
    started_at: call.started_at.toISOString(),
    answered_at: iso(call.answered_at),
    ended_at: iso(call.ended_at),
    history: events.map((e) => ({
      id: e.id,
      status: e.status,
      status_label: callStatusLabel(e.status),
      detail: e.detail,
      created_at: e.created_at.toISOString(),
      ...describeCallEvent(e.status, e.detail as Record<string, unknown>, names),
    })),
    voicemail: vm
      ? { id: vm.id, recording_url: vm.recording_url, duration_s: vm.duration_s, is_read: vm.is_read, created_at: vm.created_at.toISOString() }
      : null,
  };
}

/**
 * The outside parties' contacts `{id, name}`, in input order: the contact a call was matched to,
 * else the company's contact with that number now (a contact created after the call), else null.
 * One statement for the ids; the number lookups made together share one statement.
 */
export async function knownParties(
  ctx: AppContext,
  companyId: number,
  list: Array<{ contactId: number | null; party: string }>,
): Promise<Array<{ id: number; name: string } | null>> {
  const byId = await getContactsByIds(
    ctx,
    companyId,
    list.map((x) => x.contactId).filter((x): x is number => x !== null),
  );
  const found = await Promise.all(list.map(async (x) => (x.contactId !== null ? byId.get(x.contactId) : await findContactByNumber(ctx, companyId, x.party))));
  return found.map((c) => (c ? { id: c.id, name: c.name } : null));
}
/** One outside party's contact (see {@link knownParties}). */
export async function knownParty(ctx: AppContext, companyId: number, contactId: number | null, party: string): Promise<{ id: number; name: string } | null> {
  return (await knownParties(ctx, companyId, [{ contactId, party }]))[0] ?? null;
}

export type CallActivity = {
  id: number;
  kind: 'call' | 'voicemail';
  created_at: Date;
  number_id: number;
  number: string;
  number_label: string;
  from: string;
  to: string;
  direction: 'inbound' | 'outbound';
  status: number;
  status_label: string;
  duration_s: number;
  extension: number | null;
  forwarded_to: string | null;
  voicemail: null | { id: number; recording_url: string; duration_s: number; is_read: boolean };
  contact_id: number | null;
};

/**
 * The company's calls for the Activity feed, newest first. A call with a voicemail is kind
 * 'voicemail'. `calls=false` keeps only voicemail calls; `voicemails=false` only calls without one.
 * The caller checks company access. The numbers' E.164 and label come from the numbers module (one
 * statement for the page, released numbers included: history keeps its labels).
 */
export async function listCallActivity(
  ctx: AppContext,
  companyId: number,
  opts: { limit: number; offset: number; calls: boolean; voicemails: boolean },
): Promise<{ items: CallActivity[]; total: number }> {
  const { rows, total } = await callsRepository.activity(ctx.db, companyId, opts);
  const numbers = new Map(
    (
      await getCompanyNumbers(
        ctx,
        companyId,
        rows.map((r) => r.number_id),
        { includeReleased: true },
      )
    ).map((n) => [n.id, n]),
  );
  return {
    total,
    items: rows.map((r) => ({
      id: r.id,
      kind: r.vm_id ? 'voicemail' : 'call',
      created_at: r.started_at,
      number_id: r.number_id,
      number: numbers.get(r.number_id)?.number ?? (r.direction === 'outbound' ? r.from_number : r.to_number),
      number_label: numbers.get(r.number_id)?.label ?? '',
      from: r.from_number,
      to: r.to_number,
      direction: r.direction === 'outbound' ? 'outbound' : 'inbound',
      status: r.status,
      status_label: callStatusLabel(r.status),
      duration_s: r.duration_s,
      extension: r.extension,
      forwarded_to: r.forwarded_to,
      voicemail: r.vm_id ? { id: r.vm_id, recording_url: r.vm_url!, duration_s: r.vm_duration!, is_read: r.vm_read! } : null,
      contact_id: r.contact_id,
    })),
  };
}

/** The call's tags (id, name), by name: ids from `call_tags`, names from the tags module. */
async function tagsOfCall(ctx: AppContext, callId: number): Promise<Array<{ id: number; name: string }>> {
  return (await tagsByIds(ctx, await callsRepository.tagIdsOfCall(ctx.db, callId))).map((t) => ({ id: t.id, name: t.name }));
}

/** Calls per tag id in the company (registered with the tags module as its call-usage counter). */
export async function callTagUsage(ctx: AppContext, companyId: number): Promise<Map<number, number>> {
  return new Map((await callsRepository.callCountsByTag(ctx.db, companyId)).map((r) => [Number(r.tag_id), Number(r.n)]));
}

/** POST /api/calls/{id}/tags/tags {tags}: adds company tags (created when new) to the call; answers the call's tags. */
export async function addCallTags(ctx: AppContext, userId: number, id: number, names: string[]) {
  const call = await callForUser(ctx, userId, id, AGENT_ROLES);
  const emitted = await ctx.db.transaction().execute(async (tx) => {
    const tags = await ensureTagsByName(ctx, call.company_id, names, tx);
    await callsRepository.addCallTags(
      tx,
      call.id,
      tags.map((t) => t.id),
    );
    return recordCallAnnotated(tx, call);
  });
  await afterCallAnnotated(ctx, call, emitted);
  return { data: await tagsOfCall(ctx, call.id) };
}

/** DELETE /api/calls/{id}/tags/tags {tags}: removes those tags from the call (the company tags stay). */
export async function removeCallTags(ctx: AppContext, userId: number, id: number, names: string[]) {
  const call = await callForUser(ctx, userId, id, AGENT_ROLES);
  const tagIds = await tagIdsByName(ctx, call.company_id, names);
  const emitted = await ctx.db.transaction().execute(async (tx) => {
    await callsRepository.removeCallTags(tx, call.id, tagIds);
    return recordCallAnnotated(tx, call);
  });
  await afterCallAnnotated(ctx, call, emitted);
  return { data: await tagsOfCall(ctx, call.id) };
}

/**
 * PATCH /api/calls/{id} {qualification?: 1|2|3|null, eavAttributeValues?: [{attribute_id, value}]}:
 * answers the updated call (the web app applies it optimistically and undoes it on failure with
 * FAILED_TO_UPDATE_CALL). Custom-field values (entity type Call 6) go to the shared EAV store; only
 * the listed attributes change, null clears one.
 * @throws NotFoundError 404, ValidationError 422 (`eavAttributeValues.{i}.attribute_id|value`).
 */
export async function patchCall(
  ctx: AppContext,
  userId: number,
  id: number,
  input: { qualification?: 1 | 2 | 3 | null; eavAttributeValues?: Array<{ attribute_id: number; value: unknown }>; recalculateAiAttributes?: unknown },
) {
  const call = await callForUser(ctx, userId, id, AGENT_ROLES);
  const patch: Parameters<typeof callsRepository.update>[2] = {};
  if (input.qualification !== undefined) patch.qualification = input.qualification;
  const emitted = await ctx.db.transaction().execute(async (tx) => {
    if (Object.keys(patch).length) await callsRepository.update(tx, call.id, patch);
    await setEavValues(ctx, EAV_ENTITY_TYPES.Call, call.id, call.company_id, input.eavAttributeValues ?? [], tx);
    return recordCallAnnotated(tx, call);
  });
  await afterCallAnnotated(ctx, call, emitted);
  if (wantsAiRecalculation(input.recalculateAiAttributes))
    await ctx.hooks.ask('aiAttributesRecalculator', ctx, { id: call.id, company_id: call.company_id, number_id: call.number_id });
  return getCall(ctx, userId, id);
}

/** Recomputes a call's AI attributes from its transcript (registered by call-intelligence; docs/call-intelligence.md). */
export type AiAttributesRecalculator = HookFn<'aiAttributesRecalculator'>;
/** `recalculateAiAttributes` is asked for: true, 1, "1" or "true". */
function wantsAiRecalculation(v: unknown): boolean {
  return v === true || v === 1 || v === '1' || v === 'true';
}

/**
 * Writes AI attributes found in a call's transcript (docs/call-intelligence.md "AI attributes"): the
 * qualification (1 qualified, 2 not qualified, 3 lead; undefined = unchanged) and call custom-field
 * values, in one transaction, then announces the change (`call updated`, `call.annotated`). No user
 * check: the caller (call-intelligence) acts for the company. @throws NotFoundError for an unknown call
 * or one of another company; ValidationError for a custom field that is not the company's call field.
 */
export async function applyAiAttributes(
  ctx: AppContext,
  callId: number,
  companyId: number,
  input: { qualification?: 1 | 2 | 3; eavAttributeValues: Array<{ attribute_id: number; value: unknown }> },
): Promise<void> {
  const call = await callsRepository.find(ctx.db, callId);
  if (!call || call.company_id !== companyId) throw new NotFoundError('Call');
  const emitted = await ctx.db.transaction().execute(async (tx) => {
    if (input.qualification !== undefined) await callsRepository.update(tx, call.id, { qualification: input.qualification });
    await setEavValues(ctx, EAV_ENTITY_TYPES.Call, call.id, call.company_id, input.eavAttributeValues, tx);
    return recordCallAnnotated(tx, call);
  });
  await afterCallAnnotated(ctx, call, emitted);
}
