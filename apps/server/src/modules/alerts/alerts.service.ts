/**
 * Alerts (spec 001 "Alert", "Alerts"; docs/alerts.md): the list (perPage 10, a company or a business unit narrowed by
 * companyIds, filters), counts, one alert (opening it marks it read), update (state, comment, reason; dismissing
 * needs one of the reasons not-relevant, already-aware, duplicate, other) answering "Alert updated successfully",
 * and the history (every change: who, when). Also the monitors' thresholds per company and each member's choice
 * of alert e-mails.
 *
 * Access: any active member reads the company's alerts and works them (acknowledge, resolve, dismiss); thresholds
 * are changed by owners and administrators. Another company's alert answers 404.
 */
import {
  ALERT_EMAIL_UPDATED,
  ALERT_UPDATED,
  ACTIVE_ALERT_STATES,
  DEFAULT_MONITOR_SETTINGS,
  MONITOR_SETTINGS_UPDATED,
  MonitorSettings,
  type Alert,
  type AlertCounts,
  type AlertDismissReason,
  type AlertHistoryEntry,
  type AlertState,
  type AlertType,
  type PageMeta,
} from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { ForbiddenError, NotFoundError, deniedAsNotFound, fieldError } from '../../platform/http/errors.js';
import { pageMeta } from '../../platform/http/page.js';
import { MANAGER_ROLES, READER_ROLES, assertCompanyAccess, listCompanySummaries } from '../companies/companies.service.js';
import { getUserNames } from '../users/users.service.js';
import { alertsRepository as repo, type AlertRow } from './alerts.repository.js';

/** The answer shape of one alert; `companyName` from the caller's companies (or given). */
export function alertDto(r: AlertRow, companyName: string): Alert {
  return {
    id: r.id,
    companyId: r.company_id,
    companyName,
    type: r.type as AlertType,
    severity: r.severity as Alert['severity'],
    state: r.state as AlertState,
    title: r.title,
    message: r.message,
    subject: { type: r.subject_type as Alert['subject']['type'], id: r.subject_id, label: r.subject_label },
    details: r.details ?? {},
    reason: (r.reason as AlertDismissReason | null) ?? null,
    comment: r.comment,
    readAt: r.read_at?.toISOString() ?? null,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
    resolvedAt: r.resolved_at?.toISOString() ?? null,
  };
}

/** Which companies a list or counts call covers. */
export type AlertScopeInput = { companyId?: number; businessUnitId?: number; companyIds?: number[] };

/**
 * Resolves the scope to company ids the caller may read, with their names: a company (403 unless a member), or a
 * business unit's companies the caller belongs to (403 when none), narrowed by `companyIds` (each must be one of
 * them, 403 otherwise). @throws ValidationError 422 without a company or business unit.
 */
async function resolveScope(ctx: AppContext, userId: number, s: AlertScopeInput): Promise<Map<number, string>> {
  const mine = (await listCompanySummaries(ctx, userId)).filter((c) => READER_ROLES.includes(c.role));
  if (s.companyId) {
    await assertCompanyAccess(ctx, userId, s.companyId);
    const c = mine.find((m) => m.id === s.companyId);
    return new Map([[s.companyId, c?.name ?? '']]);
  }
  if (s.businessUnitId) {
    const inUnit = mine.filter((c) => c.organization_id === s.businessUnitId);
    if (inUnit.length === 0) throw new ForbiddenError();
    let chosen = inUnit;
    if (s.companyIds?.length) {
      if (s.companyIds.some((id) => !inUnit.some((c) => c.id === id))) throw new ForbiddenError();
      chosen = inUnit.filter((c) => s.companyIds!.includes(c.id));
    }
    return new Map(chosen.map((c) => [c.id, c.name]));
  }
  throw fieldError('company', 'The company or business unit is required.');
}

/** `GET /monitoring/alerts`: newest first, page-numbered. */
export async function listAlerts(
  ctx: AppContext,
  userId: number,
  q: AlertScopeInput & {
    state?: string[];
    type?: string[];
    severity?: string[];
    search?: string;
    from?: string;
    to?: string;
    page: number;
    perPage: number;
  },
): Promise<{ data: Alert[]; meta: PageMeta }> {
  const names = await resolveScope(ctx, userId, q);
  if (q.from && q.to && new Date(q.from) > new Date(q.to)) throw fieldError('to', 'The end must not be before the start.');
  const { rows, total } = await repo.list(
    ctx.db,
    { companyIds: [...names.keys()], states: q.state, types: q.type, severities: q.severity, search: q.search || undefined, from: q.from, to: q.to },
    q.perPage,
    (q.page - 1) * q.perPage,
  );
  return { data: rows.map((r) => alertDto(r, names.get(r.company_id) ?? '')), meta: pageMeta(q.page, q.perPage, total) };
}

/** `GET /monitoring/alerts/counts`: per state, active per monitor, active unread, total. */
export async function alertCounts(ctx: AppContext, userId: number, q: AlertScopeInput): Promise<{ data: AlertCounts }> {
  const names = await resolveScope(ctx, userId, q);
  const c = await repo.counts(ctx.db, [...names.keys()]);
  const n = (s: string) => c.byState.get(s) ?? 0;
  return {
    data: {
      open: n('open'),
      acknowledged: n('acknowledged'),
      resolved: n('resolved'),
      dismissed: n('dismissed'),
      unread: c.unread,
      total: [...c.byState.values()].reduce((a, b) => a + b, 0),
      byType: Object.fromEntries(c.byType),
    },
  };
}

/** Loads an alert of a company the caller belongs to. @throws NotFoundError 404 otherwise. */
async function loadAlert(ctx: AppContext, userId: number, id: number): Promise<{ row: AlertRow; companyName: string }> {
  const row = await repo.find(ctx.db, id);
  if (!row) throw new NotFoundError('Alert');
  await deniedAsNotFound(assertCompanyAccess(ctx, userId, row.company_id), 'Alert');
  const companyName = (await listCompanySummaries(ctx, userId)).find((c) => c.id === row.company_id)?.name ?? '';
  return { row, companyName };
}

/** Live `alert updated` on the company channel (after commit). */
function publishUpdated(ctx: AppContext, row: AlertRow, companyName: string): void {
  ctx.realtime.send(`company.${row.company_id}`, 'alert updated', alertDto(row, companyName));
}

/** `GET /monitoring/alerts/{id}`: the alert; the first person to open it marks it read (kept in the history). */
export async function getAlert(ctx: AppContext, userId: number, id: number): Promise<{ data: Alert }> {
  const { row, companyName } = await loadAlert(ctx, userId, id);
  if (row.read_at) return { data: alertDto(row, companyName) };
  const marked = await ctx.db.transaction().execute(async (tx) => {
    if (!(await repo.markRead(tx, id))) return false;
    await repo.addHistory(tx, { alert_id: id, action: 'read', from_state: row.state, to_state: row.state, user_id: userId });
    return true;
  });
  const fresh = (await repo.find(ctx.db, id))!;
  if (marked) publishUpdated(ctx, fresh, companyName);
  return { data: alertDto(fresh, companyName) };
}

/**
 * `PUT /monitoring/alerts/{id}`: a new state and/or a comment. Dismissing keeps the reason (the route's schema
 * requires one, and a comment with `other`); leaving `dismissed` clears it. Each call adds one history entry.
 * @returns "Alert updated successfully" and the alert.
 */
export async function updateAlert(
  ctx: AppContext,
  userId: number,
  id: number,
  input: { state?: AlertState; comment?: string | null; reason?: AlertDismissReason | null },
): Promise<{ message: string; data: Alert }> {
  const { companyName } = await loadAlert(ctx, userId, id);
  const updated = await ctx.db.transaction().execute(async (tx) => {
    const row = (await repo.findForUpdate(tx, id))!;
    const to = input.state ?? (row.state as AlertState);
    const closing = to === 'resolved' || to === 'dismissed';
    const reopening = ACTIVE_ALERT_STATES.includes(to) && !ACTIVE_ALERT_STATES.includes(row.state as AlertState);
    const comment = input.comment === undefined ? row.comment : input.comment || null;
    let next: AlertRow;
    try {
      next = await repo.update(tx, id, {
        state: to,
        reason: to === 'dismissed' ? (input.reason ?? row.reason) : null,
        comment,
        closed_by: closing ? userId : null,
        resolved_at: closing ? (row.state === to ? row.resolved_at : new Date()) : null,
        read_at: row.read_at ?? new Date(),
      });
    } catch (e) {
      // Reopening while the monitor already raised a new alert for the subject: the partial unique index refuses.
      if (reopening && (e as { code?: string }).code === '23505')
        throw fieldError('state', 'A newer alert about the same subject is open; work that one instead.');
      throw e;
    }
    await repo.addHistory(tx, {
      alert_id: id,
      action: reopening ? 'reopened' : 'updated',
      from_state: row.state,
      to_state: to,
      reason: to === 'dismissed' ? (next.reason ?? null) : null,
      comment: input.comment ?? null,
      user_id: userId,
    });
    return next;
  });
  publishUpdated(ctx, updated, companyName);
  return { message: ALERT_UPDATED, data: alertDto(updated, companyName) };
}

/** `GET /monitoring/alerts/{id}/history`: every change, oldest first, with who (null = the monitor) and when. */
export async function alertHistory(ctx: AppContext, userId: number, id: number): Promise<{ data: AlertHistoryEntry[] }> {
  await loadAlert(ctx, userId, id);
  const rows = await repo.history(ctx.db, id);
  const names = await getUserNames(ctx, [...new Set(rows.map((r) => r.user_id).filter((u): u is number => u !== null))]);
  return {
    data: rows.map((r) => ({
      id: r.id,
      alertId: r.alert_id,
      action: r.action as AlertHistoryEntry['action'],
      fromState: (r.from_state as AlertState | null) ?? null,
      toState: (r.to_state as AlertState | null) ?? null,
      reason: (r.reason as AlertDismissReason | null) ?? null,
      comment: r.comment,
      userId: r.user_id,
      userName: r.user_id === null ? null : (names.get(r.user_id) ?? null),
      createdAt: r.created_at.toISOString(),
    })),
  };
}

/** A company's thresholds: the stored ones merged over the defaults (a monitor added later gets its default). */
export function settingsFrom(stored: unknown): MonitorSettings {
  const s = (stored && typeof stored === 'object' ? stored : {}) as Record<string, unknown>;
  const merged = Object.fromEntries(
    Object.entries(DEFAULT_MONITOR_SETTINGS).map(([k, d]) => [k, { ...d, ...((s[k] && typeof s[k] === 'object' ? s[k] : {}) as object) }]),
  );
  const parsed = MonitorSettings.safeParse(merged);
  return parsed.success ? parsed.data : DEFAULT_MONITOR_SETTINGS;
}

/** The thresholds of one company (no access check: monitors and checked callers). */
export async function monitorSettingsOf(ctx: AppContext, companyId: number, db: DbOrTx = ctx.db): Promise<MonitorSettings> {
  return settingsFrom(await repo.settings(db, companyId));
}

/** `GET /monitoring/settings`: thresholds, whether the caller may change them, the caller's e-mail choice. */
export async function getMonitorSettings(ctx: AppContext, userId: number, companyId: number | undefined) {
  if (!companyId) throw fieldError('companyId', 'The company id is required.');
  const role = await assertCompanyAccess(ctx, userId, companyId);
  return {
    data: {
      monitors: await monitorSettingsOf(ctx, companyId),
      canEdit: MANAGER_ROLES.includes(role),
      emailAlerts: await repo.emailPreference(ctx.db, companyId, userId),
    },
  };
}

/** `PUT /monitoring/settings` (owners and administrators, 403 otherwise). */
export async function updateMonitorSettings(ctx: AppContext, userId: number, companyId: number, monitors: MonitorSettings): Promise<{ message: string }> {
  await assertCompanyAccess(ctx, userId, companyId, MANAGER_ROLES);
  await repo.saveSettings(ctx.db, companyId, monitors, userId);
  return { message: MONITOR_SETTINGS_UPDATED };
}

/** `PUT /monitoring/notification-preferences`: the caller's own choice of alert e-mails in the company. */
export async function updateAlertEmailPreference(ctx: AppContext, userId: number, companyId: number, emailAlerts: boolean): Promise<{ message: string }> {
  await assertCompanyAccess(ctx, userId, companyId);
  await repo.setEmailPreference(ctx.db, companyId, userId, emailAlerts);
  return { message: ALERT_EMAIL_UPDATED };
}
