/**
 * Read-only reporting queries of the calls module for the reporting store (modules/analytics,
 * docs/analytics.md): a call with everything its fact needs, pages and windows of call ids for the reconcile job, tag names, and voicemails for their export. Reads only
 * the calls module's own tables (`calls`, `voicemails`, `call_tags`; tag names through the tags module); never writes.
 */
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { tagNamesOfCompanies } from '../tags/tags.service.js';

/** One call as the reporting store reads it. Times UTC; `duration_s` seconds. */
export type CallForFacts = {
  id: number;
  company_id: number;
  number_id: number;
  from_number: string;
  to_number: string;
  /** Caller's state/province code as the carrier gave it (null unknown). */
  from_state: string | null;
  direction: string;
  /** CALL_STATUS code. */
  status: number;
  extension: number | null;
  duration_s: number;
  contact_id: number | null;
  started_at: Date;
  answered_at: Date | null;
  ended_at: Date | null;
  /** qualified 1, not qualified 2, lead 3 (spec 001 §3). */
  qualification: number | null;
  /** The call's voicemail, when one was recorded. */
  voicemail_id: number | null;
  tag_ids: number[];
};

/** The calls among `ids` with their voicemail and tags (ids that do not exist are absent). Two statements. */
export async function callsForFacts(ctx: AppContext, ids: readonly number[], db: DbOrTx = ctx.db): Promise<CallForFacts[]> {
  if (ids.length === 0) return [];
  const unique = [...new Set(ids)];
  const [rows, tags] = await Promise.all([
    db
      .selectFrom('calls as c')
      .leftJoin('voicemails as v', 'v.call_id', 'c.id')
      .select([
        'c.id',
        'c.company_id',
        'c.number_id',
        'c.from_number',
        'c.to_number',
        'c.from_state',
        'c.direction',
        'c.status',
        'c.extension',
        'c.duration_s',
        'c.contact_id',
        'c.started_at',
        'c.answered_at',
        'c.ended_at',
        'c.qualification',
        'v.id as voicemail_id',
      ])
      .where('c.id', 'in', unique)
      .execute(),
    db.selectFrom('call_tags').select(['call_id', 'tag_id']).where('call_id', 'in', unique).orderBy('tag_id').execute(),
  ]);
  const tagsOf = new Map<number, number[]>();
  for (const t of tags) tagsOf.set(Number(t.call_id), [...(tagsOf.get(Number(t.call_id)) ?? []), Number(t.tag_id)]);
  const seen = new Set<number>();
  const out: CallForFacts[] = [];
  for (const r of rows) {
    const id = Number(r.id);
    if (seen.has(id)) continue; // a call has at most one voicemail; guard against a second anyway
    seen.add(id);
    out.push({
      ...r,
      id,
      company_id: Number(r.company_id),
      number_id: Number(r.number_id),
      contact_id: r.contact_id === null ? null : Number(r.contact_id),
      voicemail_id: r.voicemail_id === null ? null : Number(r.voicemail_id),
      tag_ids: tagsOf.get(id) ?? [],
    });
  }
  return out;
}

/** Ids of calls after `afterId` (ascending, at most `limit`), optionally only those started at or after `since`: the reconcile job's pages. */
export async function callIdsPage(ctx: AppContext, afterId: number, limit: number, since?: Date): Promise<number[]> {
  let q = ctx.db.selectFrom('calls').select('id').where('id', '>', afterId);
  if (since) q = q.where('started_at', '>=', since);
  const rows = await q.orderBy('id').limit(limit).execute();
  return rows.map((r) => Number(r.id));
}

/** How many calls have an id in [lo, hi], and the highest call id (0 without calls): the reconcile job skips windows whose facts are all there. */
export async function callIdWindow(ctx: AppContext, lo: number, hi: number): Promise<{ count: number; maxId: number }> {
  const [n, max] = await Promise.all([
    ctx.db
      .selectFrom('calls')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('id', '>=', lo)
      .where('id', '<=', hi)
      .executeTakeFirstOrThrow(),
    ctx.db
      .selectFrom('calls')
      .select((eb) => eb.fn.max('id').as('m'))
      .executeTakeFirstOrThrow(),
  ]);
  return { count: Number(n.n), maxId: Number(max.m ?? 0) };
}

/** Names of tags by id (the tags of `companyIds`; the tags module's). */
export async function tagNamesOf(ctx: AppContext, companyIds: readonly number[]): Promise<Map<number, string>> {
  return tagNamesOfCompanies(ctx, companyIds);
}

/** One voicemail for its export. */
export type VoicemailForExport = {
  id: number;
  company_id: number;
  call_id: number;
  number_id: number;
  from_number: string;
  contact_id: number | null;
  duration_s: number;
  is_read: boolean;
  recording_url: string;
  created_at: Date;
};

/**
 * A page of voicemails of `companyIds` recorded in [from, to) (UTC), optionally on `numberIds`,
 * by id after `afterId` (keyset paging: the export streams them page by page).
 */
export async function voicemailsPage(
  ctx: AppContext,
  q: { companyIds: readonly number[]; from: Date; to: Date; numberIds?: readonly number[]; afterId: number; limit: number },
): Promise<VoicemailForExport[]> {
  if (q.companyIds.length === 0) return [];
  let query = ctx.db
    .selectFrom('voicemails as v')
    .innerJoin('calls as c', 'c.id', 'v.call_id')
    .select([
      'v.id',
      'v.company_id',
      'v.call_id',
      'v.number_id',
      'c.from_number',
      'c.contact_id',
      'v.duration_s',
      'v.is_read',
      'v.recording_url',
      'v.created_at',
    ])
    .where('v.company_id', 'in', [...q.companyIds])
    .where('v.created_at', '>=', q.from)
    .where('v.created_at', '<', q.to)
    .where('v.id', '>', q.afterId);
  if (q.numberIds && q.numberIds.length > 0) query = query.where('v.number_id', 'in', [...q.numberIds]);
  const rows = await query.orderBy('v.id').limit(q.limit).execute();
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    company_id: Number(r.company_id),
    call_id: Number(r.call_id),
    number_id: Number(r.number_id),
    contact_id: r.contact_id === null ? null : Number(r.contact_id),
  }));
}

/** A call of the activity feed read by id (the feed's report filters pick the ids in the reporting store). */
export type CallActivityRow = {
  id: number;
  started_at: Date;
  number_id: number;
  from_number: string;
  to_number: string;
  direction: string;
  status: number;
  duration_s: number;
  contact_id: number | null;
  voicemail: { id: number; recording_url: string; duration_s: number; is_read: boolean } | null;
};

/** The calls among `ids` of `companyId` with their voicemail, in the order of `ids`. */
export async function callActivityOf(ctx: AppContext, companyId: number, ids: readonly number[]): Promise<CallActivityRow[]> {
  if (ids.length === 0) return [];
  const rows = await ctx.db
    .selectFrom('calls as c')
    .leftJoin('voicemails as v', 'v.call_id', 'c.id')
    .select([
      'c.id',
      'c.started_at',
      'c.number_id',
      'c.from_number',
      'c.to_number',
      'c.direction',
      'c.status',
      'c.duration_s',
      'c.contact_id',
      'v.id as vm_id',
      'v.recording_url as vm_url',
      'v.duration_s as vm_duration',
      'v.is_read as vm_read',
    ])
    .where('c.company_id', '=', companyId)
    .where('c.id', 'in', [...new Set(ids)])
    .execute();
  const byId = new Map<number, CallActivityRow>();
  for (const r of rows) {
    byId.set(Number(r.id), {
      id: Number(r.id),
      started_at: r.started_at,
      number_id: Number(r.number_id),
      from_number: r.from_number,
      to_number: r.to_number,
      direction: r.direction,
      status: r.status,
      duration_s: r.duration_s,
      contact_id: r.contact_id === null ? null : Number(r.contact_id),
      voicemail: r.vm_id !== null ? { id: Number(r.vm_id), recording_url: r.vm_url ?? '', duration_s: r.vm_duration ?? 0, is_read: r.vm_read ?? false } : null,
    });
  }
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}
