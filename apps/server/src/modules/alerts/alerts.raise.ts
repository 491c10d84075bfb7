/**
 * Raising and resolving alerts (docs/alerts.md "One alert per subject", "Live and e-mail"):
 *
 * - {@link raiseAlert} inserts an open alert unless the subject already has an active one (open or acknowledged).
 *   The partial unique index `alerts_one_active_per_subject` makes that hold when a monitor runs twice, or on two
 *   nodes at once: the second insert does nothing. A subject a person dismissed stays quiet for
 *   {@link QUIET_AFTER_DISMISS_MS} (24 h), one a person resolved for {@link QUIET_AFTER_RESOLVE_MS} (1 h); `once`
 *   subjects (a voicemail) are never raised twice. The creation is kept in the history (user null: the monitor).
 * - After commit: `alert created` on `company.{companyId}` and an e-mail to each active member who chose alert
 *   e-mails (`alert_email_preferences`; off unless chosen).
 * - {@link resolveByMonitor}: the condition cleared; the alert is resolved by the monitor (history, live update).
 */
import { ALERT_TYPE_LABELS, type AlertSeverity, type AlertType, type Infer } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { getCompanyMessagingSettings, listActiveMembers } from '../companies/companies.service.js';
import { findUser } from '../users/users.service.js';
import { alertsRepository as repo, type AlertRow } from './alerts.repository.js';
import { alertDto } from './alerts.service.js';

export const QUIET_AFTER_DISMISS_MS = 24 * 3600_000;
export const QUIET_AFTER_RESOLVE_MS = 3600_000;

/** What a monitor found. `subjectId` identifies the subject within the company and monitor (e.g. `number:12`). */
export type AlertCandidate = {
  companyId: number;
  type: AlertType;
  severity?: Infer<typeof AlertSeverity>;
  subjectType: 'company' | 'number' | 'pool' | 'campaign' | 'carrier_error' | 'voicemail';
  subjectId: string;
  subjectLabel: string;
  title: string;
  message: string;
  details: Record<string, unknown>;
  /** Never raise this subject again once it had an alert (a voicemail). */
  once?: boolean;
};

async function companyName(ctx: AppContext, companyId: number): Promise<string> {
  return (await getCompanyMessagingSettings(ctx, companyId)).name;
}

/**
 * Raises the alert unless its subject has an active one or is in its quiet period.
 * @returns the new alert row, or undefined when nothing was raised.
 */
export async function raiseAlert(ctx: AppContext, c: AlertCandidate, now = new Date()): Promise<AlertRow | undefined> {
  const dismissedSince = c.once ? new Date(0) : new Date(now.getTime() - QUIET_AFTER_DISMISS_MS);
  const resolvedSince = c.once ? new Date(0) : new Date(now.getTime() - QUIET_AFTER_RESOLVE_MS);
  if (await repo.closedByPersonSince(ctx.db, c.companyId, c.type, c.subjectId, dismissedSince, resolvedSince)) return undefined;
  if (c.once && (await repo.anyForSubject(ctx.db, c.companyId, c.type, c.subjectId))) return undefined;
  const row = await ctx.db.transaction().execute(async (tx) => {
    const inserted = await repo.insertIfNoActive(tx, {
      company_id: c.companyId,
      type: c.type,
      severity: c.severity ?? 'warning',
      subject_type: c.subjectType,
      subject_id: c.subjectId,
      subject_label: c.subjectLabel,
      title: c.title,
      message: c.message,
      details: JSON.stringify(c.details),
    });
    if (inserted) await repo.addHistory(tx, { alert_id: inserted.id, action: 'created', from_state: null, to_state: 'open', user_id: null });
    return inserted;
  });
  if (!row) return undefined;
  const name = await companyName(ctx, c.companyId);
  ctx.realtime.send(`company.${c.companyId}`, 'alert created', alertDto(row, name));
  await mailAlert(ctx, row, name);
  return row;
}

/** E-mails the alert to the company's active members who chose alert e-mails. */
async function mailAlert(ctx: AppContext, row: AlertRow, company: string): Promise<void> {
  const chose = new Set(await repo.emailRecipients(ctx.db, row.company_id));
  if (chose.size === 0) return;
  const members = (await listActiveMembers(ctx, row.company_id)).filter((m) => chose.has(m.userId));
  const link = `${ctx.config.publicUrl}/alerts?alert=${row.id}`;
  for (const m of members) {
    const user = await findUser(ctx, m.userId);
    if (!user?.email) continue;
    await ctx.mailer.send({
      to: user.email,
      subject: `[${company}] ${row.title}`,
      text: `${ALERT_TYPE_LABELS[row.type as AlertType]}: ${row.message}\n\nOpen the alert: ${link}\n\nYou get these e-mails because you chose alert e-mails for ${company} (Alerts → Settings).\n`,
      html: `<p><strong>${escapeHtml(ALERT_TYPE_LABELS[row.type as AlertType])}</strong>: ${escapeHtml(row.message)}</p><p><a href="${link}">Open the alert</a></p><p style="color:#666">You get these e-mails because you chose alert e-mails for ${escapeHtml(company)} (Alerts → Settings).</p>`,
    });
  }
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

/** Resolves an active alert whose condition cleared (by the monitor: no user). No-op when it is no longer active. */
export async function resolveByMonitor(ctx: AppContext, alert: AlertRow, why: string): Promise<void> {
  const row = await ctx.db.transaction().execute(async (tx) => {
    const current = await repo.findForUpdate(tx, alert.id);
    if (!current || (current.state !== 'open' && current.state !== 'acknowledged')) return undefined;
    const next = await repo.update(tx, alert.id, { state: 'resolved', closed_by: null, resolved_at: new Date() });
    await repo.addHistory(tx, { alert_id: alert.id, action: 'resolved', from_state: current.state, to_state: 'resolved', comment: why, user_id: null });
    return next;
  });
  if (row) ctx.realtime.send(`company.${row.company_id}`, 'alert updated', alertDto(row, await companyName(ctx, row.company_id)));
}
