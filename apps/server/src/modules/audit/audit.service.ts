/**
 * The audit log (docs/audit.md): who (a user, an API key, or an operator in admin mode), what (entity, action, the
 * submitted fields with secrets redacted), when (UTC) and from where (address, user agent), in the append-only
 * `audit_log`. Requests are recorded by the hook in `audit.http.ts`; jobs and services record with `recordAudit`.
 * Owners and administrators read and export a company's log.
 */
import type { AuditEntry, AuditLogQuery } from '@switchboard/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { HookFn } from '../../platform/hooks/registry.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { toCsv } from '../../platform/csv.js';
import { pageMeta, type PageMeta } from '../../platform/http/page.js';
import { assertCompanyAccess, MANAGER_ROLES } from '../companies/companies.service.js';
import { auditRepository, type AuditFilter, type AuditInsert, type AuditRow } from './audit.repository.js';

/** What one audit entry says; `changes` is redacted here before it is stored. */
export type AuditRecord = Omit<AuditInsert, 'id' | 'created_at' | 'changes'> & { changes?: unknown };

/** Keys whose values never reach the log (matched case-insensitively anywhere in the key). */
const SECRET_KEY =
  /pass(word)?|token|secret|card|cvc|cvv|pin$|^otp|totp|mfa_code|^code$|authorization|api_?key|private|ssn|account_number|routing_number|signature|cookie|^auth$|^endpoint$|^p256dh$/i;
export const REDACTED = '[redacted]';
const MAX_STRING = 500;
const MAX_ITEMS = 50;
const MAX_DEPTH = 4;

/**
 * A copy of `value` fit for the log: values under secret-looking keys replaced by `[redacted]`, strings cut at 500
 * characters, arrays at 50 items, nesting at 4 levels; functions, buffers and streams (uploads) left out.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (typeof value === 'string') return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value !== 'object' || Buffer.isBuffer(value) || typeof (value as { pipe?: unknown }).pipe === 'function') return undefined;
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((v) => redact(v, depth + 1));
    return value.length > MAX_ITEMS ? [...items, `… ${value.length - MAX_ITEMS} more`] : items;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (SECRET_KEY.test(k)) out[k] = REDACTED;
    else {
      const r = redact(v, depth + 1);
      if (r !== undefined) out[k] = r;
    }
  }
  return out;
}

/**
 * Appends one entry (a request, a job's action). Runs in `db` (the caller's transaction) when given, so the entry
 * exists exactly when the change committed.
 */
export async function recordAudit(ctx: AppContext, record: AuditRecord, db: DbOrTx = ctx.db): Promise<void> {
  const { changes, ...rest } = record;
  const redacted = changes === undefined ? null : (redact(changes) as Record<string, unknown> | null);
  await auditRepository.insert(db, {
    ...rest,
    changes: redacted === null ? null : JSON.stringify(redacted),
    user_agent: rest.user_agent?.slice(0, 300) ?? null,
    path: rest.path?.slice(0, 500) ?? null,
  });
}

/** Whether the company's log (null: entries without a company) holds an entry of `action` on this entity. */
export async function hasAuditEntry(ctx: AppContext, companyId: number | null, entityType: string, entityId: string, action: string): Promise<boolean> {
  return auditRepository.hasEntry(ctx.db, companyId, entityType, entityId, action);
}

/**
 * Records a routine request's entry unless the person has one of this outcome on `path` within `withinMs`: the check and
 * the insert run under a transaction-scoped advisory lock on (person, company, path), so concurrent renewals record
 * one entry, not one each.
 */
export async function recordRoutineAudit(
  ctx: AppContext,
  record: AuditRecord,
  q: { companyId: number | null; actorUserId: number | null; path: string; outcome: string; withinMs: number },
): Promise<void> {
  await ctx.db.transaction().execute(async (tx) => {
    await auditRepository.lockRoutine(tx, `${q.actorUserId ?? '-'}:${q.companyId ?? '-'}:${q.path}`);
    if (await auditRepository.hasRecent(tx, { ...q, since: new Date(Date.now() - q.withinMs) })) return;
    await recordAudit(ctx, record, tx);
  });
}

/** Resolves user ids to display names: the `auditActorNames` hook, provided by a module that may read users (api-keys setup). */
export type ActorNames = HookFn<'auditActorNames'>;

function filterOf(q: z.output<typeof AuditLogQuery>): AuditFilter {
  return {
    companyId: q.company_id,
    actorUserId: q.actor_user_id,
    actorKind: q.actor_kind,
    entityType: q.entity_type || undefined,
    action: q.action || undefined,
    outcome: q.outcome,
    from: q.from,
    to: q.to,
    search: q.search || undefined,
  };
}

async function toEntries(ctx: AppContext, rows: AuditRow[]): Promise<AuditEntry[]> {
  const ids = [...new Set(rows.flatMap((r) => [r.actor_user_id, r.operator_user_id]).filter((id): id is number => id !== null))];
  const names = ids.length ? await ctx.hooks.ask('auditActorNames', ids) : new Map<number, string>();
  return rows.map((r) => {
    const who = r.actor_kind === 'operator' ? r.operator_user_id : r.actor_user_id;
    return {
      id: r.id,
      created_at: r.created_at.toISOString(),
      company_id: r.company_id,
      actor_kind: r.actor_kind,
      actor_user_id: r.actor_user_id,
      actor_name: r.actor_name ?? (who !== null ? (names.get(who) ?? null) : null),
      api_key_id: r.api_key_id,
      operator_user_id: r.operator_user_id,
      action: r.action,
      entity_type: r.entity_type,
      entity_id: r.entity_id,
      method: r.method,
      path: r.path,
      status_code: r.status_code,
      outcome: r.outcome,
      changes: r.changes,
      ip: r.ip,
      user_agent: r.user_agent,
    };
  });
}

/**
 * A page of the company's log, newest first. Owners and administrators only.
 * @throws ForbiddenError (403) for anyone else.
 */
export async function listAuditLog(ctx: AppContext, userId: number, q: z.output<typeof AuditLogQuery>): Promise<{ data: AuditEntry[]; meta: PageMeta }> {
  await assertCompanyAccess(ctx, userId, q.company_id, MANAGER_ROLES);
  const { rows, total } = await auditRepository.page(ctx.db, filterOf(q), q.per_page, (q.page - 1) * q.per_page);
  return { data: await toEntries(ctx, rows), meta: pageMeta(q.page, q.per_page, total) };
}

/** Most entries one export holds (the newest). */
export const AUDIT_EXPORT_LIMIT = 50_000;
const CSV_FIELDS = [
  'time_utc',
  'actor',
  'actor_kind',
  'actor_user_id',
  'api_key_id',
  'operator_user_id',
  'action',
  'entity_type',
  'entity_id',
  'outcome',
  'status_code',
  'method',
  'path',
  'changes',
  'ip',
  'user_agent',
] as const;

/**
 * The filtered log as CSV (platform/csv.ts: formula cells neutralised), newest first, at most 50 000 rows.
 * @throws ForbiddenError (403) for anyone but owners and administrators.
 */
export async function exportAuditCsv(ctx: AppContext, userId: number, q: z.output<typeof AuditLogQuery>): Promise<{ filename: string; csv: string }> {
  await assertCompanyAccess(ctx, userId, q.company_id, MANAGER_ROLES);
  const entries = await toEntries(ctx, await auditRepository.all(ctx.db, filterOf(q), AUDIT_EXPORT_LIMIT));
  const csv = toCsv(
    entries.map((e) => [
      e.created_at,
      e.actor_name,
      e.actor_kind,
      e.actor_user_id,
      e.api_key_id,
      e.operator_user_id,
      e.action,
      e.entity_type,
      e.entity_id,
      e.outcome,
      e.status_code,
      e.method,
      e.path,
      e.changes ? JSON.stringify(e.changes) : null,
      e.ip,
      e.user_agent,
    ]),
    { fields: CSV_FIELDS },
  );
  return { filename: `audit-log-${q.company_id}-${new Date().toISOString().slice(0, 10)}.csv`, csv };
}

/** One state change a job made (docs/audit.md "Jobs"). */
export type JobAuditRecord = {
  /** The queue job's name (e.g. `numbers.batch`, `campaigns.start`). */
  job: string;
  /** The company changed, if any. */
  companyId: number | null;
  /** What happened (`purchase`, `sent`, `finished`, ...) on which entity (`numbers`, `campaigns`, ...). */
  action: string;
  entityType: string;
  entityId?: string | number | null;
  /** The person whose request started the job, when known. */
  startedBy?: number | null;
  /** What changed (redacted like request bodies). */
  changes?: Record<string, unknown>;
  outcome?: 'success' | 'failed';
  /** Record only when the log has no entry of this action on this entity yet (jobs that may observe a change twice). */
  once?: boolean;
};

/**
 * Records a job's state change in the audit log after its commit (any module may call it; audit is
 * level 1): actor kind `system`, actor name `Job <name>` (`Job <name>, started by <person>` when the
 * starter is known; the starter is also `actor_user_id`, so filtering by person finds the jobs they
 * started), `changes` with `job` and `started_by`. Never throws: a failed write is logged (the job's
 * change stands), so a job calling it twice on a retry leaves at most two entries — callers call it
 * once the change is committed, on the run that made it.
 */
export async function recordJobAudit(ctx: AppContext, r: JobAuditRecord): Promise<void> {
  try {
    const entityId = r.entityId === undefined || r.entityId === null ? null : String(r.entityId);
    if (r.once && entityId !== null && (await auditRepository.hasEntry(ctx.db, r.companyId, r.entityType, entityId, r.action))) return;
    const starter = r.startedBy ?? null;
    let who: string | null = null;
    if (starter !== null) who = (await ctx.hooks.ask('auditActorNames', [starter])).get(starter) ?? null;
    const name = `Job ${r.job}${starter !== null ? `, started by ${who ?? `user ${starter}`}` : ''}`;
    await recordAudit(ctx, {
      company_id: r.companyId,
      actor_kind: 'system',
      actor_user_id: starter,
      actor_name: name,
      api_key_id: null,
      operator_user_id: null,
      action: r.action,
      entity_type: r.entityType,
      entity_id: entityId,
      method: null,
      path: null,
      status_code: null,
      outcome: r.outcome ?? 'success',
      changes: { ...(r.changes ?? {}), job: r.job, started_by: starter },
      ip: null,
      user_agent: null,
    });
  } catch (error) {
    ctx.log.error({ err: error, job: r.job, action: r.action }, 'audit entry of a job not written');
  }
}
