/**
 * The monitors (not in the spec; docs/alerts.md "Monitors"). Each finds subjects whose condition holds and raises
 * at most one active alert per subject ({@link raiseAlert}); polling monitors also resolve the active alerts whose
 * condition cleared. Thresholds come from the company's settings (contracts `MonitorSettings`).
 *
 * | monitor                | subject            | fed by                                        | evaluated                     |
 * | ---------------------- | ------------------ | --------------------------------------------- | ----------------------------- |
 * | `missed_calls`         | the company        | `call.changed` → `alerts.check-calls` job      | per company after its calls; tick re-checks active |
 * | `number_silent`        | a number           | analytics `lastCallAtByNumber`                 | tick, hourly                  |
 * | `pool_exhausted`       | a tracking pool    | `tracking.pool-exhausted`                      | at once                       |
 * | `delivery_failures`    | a campaign / texts | `campaign.delivery-outcomes` (campaigns), `message.status-changed` (other texts) → own 5-min buckets | tick |
 * | `carrier_error`        | an error code      | the same buckets, by carrier error code        | tick                          |
 * | `voicemail_unanswered` | a voicemail        | `call.changed` (voicemailId; later outbound call), `message.status-changed` (outbound text) | tick |
 *
 * Every handler and job is idempotent: running twice (or on two nodes) raises nothing twice (the partial unique
 * index), resolving twice is a no-op.
 */
import { carrierErrorText, type MonitorSettings } from '@switchboard/contracts';
import { formatPhone } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import { events, type DomainEvents, type EventMeta } from '../../platform/events/index.js';
import { getConversationRow, findItem } from '../conversations/conversations.queries.js';
import { countCalls, lastCallAtByNumber } from '../analytics/analytics.service.js';
import { getCompanyNumbers } from '../numbers/numbers.service.js';
import { alertsRepository as repo } from './alerts.repository.js';
import { raiseAlert, resolveByMonitor } from './alerts.raise.js';
import { monitorSettingsOf, settingsFrom } from './alerts.service.js';

/** Timings in ms (tests may lower them). */
export const monitorTuning = {
  /** How often each worker node enqueues a monitor run (`alerts.tick`). */
  tickMs: 60_000,
  /** Delay before a company's missed-call check after a call, so a burst of calls makes one check. */
  callCheckDelayMs: 10_000,
  /** How often the number-silence monitor runs at most (per process). */
  silentEveryMs: 3600_000,
};

export const TICK_JOB = 'alerts.tick';
export const CHECK_CALLS_JOB = 'alerts.check-calls';

const BUCKET_MS = 5 * 60_000;
const bucketOf = (at: Date) => new Date(Math.floor(at.getTime() / BUCKET_MS) * BUCKET_MS);
const pct = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10);

// ---- event reactions ----

/**
 * `message.status-changed`: counts final outcomes (delivered; undelivered or failed, by carrier error code) in the
 * company's 5-minute buckets, per campaign when the message is a campaign's. An outbound text to a caller who left
 * a voicemail answers it.
 */
export async function onMessageStatus(ctx: AppContext, e: DomainEvents['message.status-changed'], meta?: EventMeta): Promise<void> {
  const failed = e.state === 'undelivered' || e.state === 'failed';
  if (failed || e.state === 'delivered') {
    // Counted once per event (a redelivery or a replay counts nothing), in the bucket of the event's time.
    await ctx.db.transaction().execute(async (tx) => {
      if (!(await events.claimEffect(tx, meta))) return;
      await repo.countMessageOutcome(tx, {
        companyId: e.companyId,
        campaignId: e.campaignId ?? 0,
        errorCode: failed && e.errorCode !== null ? String(e.errorCode) : '',
        bucketStart: bucketOf(meta?.at ?? new Date()),
        failed,
        shard: meta?.eventId ?? 0,
      });
    });
  }
  if (e.state && e.state !== 'received' && !failed && (await repo.hasOpenVoicemails(ctx.db, e.companyId))) {
    const item = await findItem(ctx, e.itemId);
    if (!item || item.is_inbound || item.type !== 'message') return;
    const conversation = await getConversationRow(ctx, e.conversationId);
    if (conversation) await answerVoicemails(ctx, e.companyId, conversation.recipient, item.created_at, 'A text message was sent to the caller.');
  }
}

/**
 * `campaign.delivery-outcomes` (emitted by campaigns after its delivery callback or a send batch committed): counts the
 * campaign's final outcomes in the company's 5-minute bucket of that campaign, failures by carrier error code (so the
 * `delivery_failures` monitor sees each campaign, and `carrier_error` its error codes). One upsert per (kind, code).
 */
export async function onCampaignDeliveries(ctx: AppContext, e: DomainEvents['campaign.delivery-outcomes'], meta?: EventMeta): Promise<void> {
  const counts = new Map<string, { failed: boolean; errorCode: string; count: number }>();
  for (const o of e.outcomes) {
    const failed = o.state !== 'delivered';
    const errorCode = failed && o.errorCode !== null ? String(o.errorCode) : '';
    const key = `${failed ? 'f' : 'd'}:${errorCode}`;
    const c = counts.get(key) ?? { failed, errorCode, count: 0 };
    c.count += 1;
    counts.set(key, c);
  }
  const bucketStart = bucketOf(meta?.at ?? new Date());
  await ctx.db.transaction().execute(async (tx) => {
    if (!(await events.claimEffect(tx, meta))) return;
    for (const c of counts.values())
      await repo.countMessageOutcome(tx, { companyId: e.companyId, campaignId: e.campaignId, bucketStart, shard: meta?.eventId ?? 0, ...c });
  });
}

/**
 * `call.changed`: an inbound call with a voicemail starts watching it; an outbound call to a caller answers their
 * earlier voicemails; an inbound call schedules the company's missed-call check.
 */
export async function onCallChanged(ctx: AppContext, e: DomainEvents['call.changed']): Promise<void> {
  if (e.history) return; // a past call recorded after the fact: nothing to watch, no missed-call check
  const at = e.startedAt ? new Date(e.startedAt) : new Date();
  if (e.direction === 'outbound') {
    if (await repo.hasOpenVoicemailFrom(ctx.db, e.companyId, e.from)) await answerVoicemails(ctx, e.companyId, e.from, at, 'The caller was called back.');
    return;
  }
  const last = touchedAt.get(e.companyId) ?? 0;
  if (Date.now() - last > TOUCH_EVERY_MS) {
    touchedAt.set(e.companyId, Date.now());
    await repo.touchCallCompany(ctx.db, e.companyId, at);
  }
  if (e.voicemailId) {
    await repo.watchVoicemail(ctx.db, {
      callId: e.callId,
      companyId: e.companyId,
      numberId: e.numberId,
      party: e.from,
      voicemailId: e.voicemailId,
      leftAt: at,
    });
  }
  scheduleCallCheck(ctx, e.companyId);
}

/** Companies whose missed-call check this process has scheduled and not yet enqueued. */
const pendingChecks = new Set<number>();

/**
 * Enqueues the company's missed-call check `callCheckDelayMs` from now, once per company per delay in this process
 * (a burst of call changes makes one job, and the webhook's path does no extra write). A check lost to a crash is
 * made again at the company's next call; active alerts are re-checked by the tick anyway.
 */
function scheduleCallCheck(ctx: AppContext, companyId: number): void {
  if (pendingChecks.has(companyId)) return;
  pendingChecks.add(companyId);
  setTimeout(() => {
    pendingChecks.delete(companyId);
    ctx.queue
      .enqueue(CHECK_CALLS_JOB, { companyId }, { singletonKey: `alerts-calls-${companyId}` })
      .catch((err: unknown) => ctx.log.warn({ err, companyId }, 'alerts: could not enqueue the missed-call check'));
  }, monitorTuning.callCheckDelayMs).unref();
}

/** Per process: when each company was last noted in `monitor_call_companies` (one write per company per 10 min). */
const touchedAt = new Map<number, number>();
const TOUCH_EVERY_MS = 10 * 60_000;

/**
 * The missed-call monitor for one company (the `alerts.check-calls` job, and the tick for active alerts): inbound
 * calls of the last hour from the reporting store; missed = not answered (nobody answered, or a voicemail). Raises
 * when there were at least `minCalls` calls and the missed share reached `percent`; resolves otherwise.
 */
export async function checkMissedCalls(ctx: AppContext, companyId: number, now = new Date()): Promise<void> {
  const cfg = (await monitorSettingsOf(ctx, companyId)).missedCalls;
  const c = cfg.enabled ? await countCalls(ctx, { companyId, from: new Date(now.getTime() - 3600_000), to: new Date(now.getTime() + 1) }) : null;
  const missed = c ? c.missed + c.voicemails : 0;
  const share = c ? pct(missed, c.total) : 0;
  if (c && c.total >= cfg.minCalls && share >= cfg.percent) {
    await raiseAlert(
      ctx,
      {
        companyId,
        type: 'missed_calls',
        severity: share >= 50 ? 'critical' : 'warning',
        subjectType: 'company',
        subjectId: 'calls',
        subjectLabel: 'Inbound calls',
        title: `${share}% of calls missed in the last hour`,
        message: `${missed} of ${c.total} calls in the last hour were not answered (${c.voicemails} went to voicemail); alert at ${cfg.percent}% with at least ${cfg.minCalls} calls.`,
        details: {
          total: c.total,
          answered: c.answered,
          missed: c.missed,
          voicemails: c.voicemails,
          sharePercent: share,
          thresholdPercent: cfg.percent,
          minCalls: cfg.minCalls,
        },
      },
      now,
    );
    return;
  }
  for (const a of await repo.activeOfType(ctx.db, companyId, 'missed_calls'))
    await resolveByMonitor(ctx, a, 'The share of missed calls fell below the threshold.');
}

/**
 * Numbers without calls for the company's `days` (numbers that never had a call are left out: a new number is not
 * silent). Companies: those that had calls since the monitors started (`monitor_call_companies`).
 */
async function evaluateSilentNumbers(ctx: AppContext, now: Date): Promise<void> {
  const companies = await repo.callCompanies(ctx.db);
  const settings = await repo.settingsOf(ctx.db, companies);
  for (const companyId of companies) {
    const cfg = settingsFrom(settings.get(companyId)).numberSilent;
    const last = cfg.enabled ? await lastCallAtByNumber(ctx, companyId) : new Map<number, Date | null>();
    const limit = now.getTime() - cfg.days * 24 * 3600_000;
    const silent = [...last].filter((e): e is [number, Date] => e[1] !== null && e[1].getTime() < limit);
    const firing = new Set(silent.map(([id]) => `number:${id}`));
    if (silent.length > 0) {
      const numbers = new Map(
        (
          await getCompanyNumbers(
            ctx,
            companyId,
            silent.map(([id]) => id),
          )
        ).map((n) => [n.id, n]),
      );
      for (const [id, at] of silent) {
        const n = numbers.get(id);
        if (!n) continue;
        const label = n.label ? `${n.label} (${formatPhone(n.number)})` : formatPhone(n.number);
        const days = Math.floor((now.getTime() - at.getTime()) / (24 * 3600_000));
        await raiseAlert(
          ctx,
          {
            companyId,
            type: 'number_silent',
            subjectType: 'number',
            subjectId: `number:${id}`,
            subjectLabel: label,
            title: `No calls on ${label} for ${days} days`,
            message: `${label} has had no calls since ${at.toISOString().slice(0, 10)} (alert after ${cfg.days} days). Check the ad or listing that shows it, and its routing.`,
            details: { numberId: id, lastCallAt: at.toISOString(), days, thresholdDays: cfg.days },
          },
          now,
        );
      }
    }
    for (const a of await repo.activeOfType(ctx.db, companyId, 'number_silent'))
      if (!firing.has(a.subject_id)) await resolveByMonitor(ctx, a, 'The number has calls again.');
  }
}

/** Marks the party's earlier voicemails answered and resolves their alerts. */
async function answerVoicemails(ctx: AppContext, companyId: number, party: string, at: Date, why: string): Promise<void> {
  const callIds = await repo.answerVoicemails(ctx.db, companyId, party, at);
  if (callIds.length === 0) return;
  const subjects = new Set(callIds.map((id) => `voicemail:${id}`));
  for (const a of await repo.activeOfType(ctx.db, companyId, 'voicemail_unanswered')) if (subjects.has(a.subject_id)) await resolveByMonitor(ctx, a, why);
}

/** `tracking.pool-exhausted` (once per exhaustion episode): raises the pool's alert when the monitor is on. */
export async function onPoolExhausted(ctx: AppContext, e: { companyId: number; poolId: number; poolName: string; at: Date | string }): Promise<void> {
  const s = await monitorSettingsOf(ctx, e.companyId);
  if (!s.poolExhausted.enabled) return;
  await raiseAlert(ctx, {
    companyId: e.companyId,
    type: 'pool_exhausted',
    severity: 'critical',
    subjectType: 'pool',
    subjectId: `pool:${e.poolId}`,
    subjectLabel: e.poolName,
    title: `Tracking pool “${e.poolName}” ran out of numbers`,
    message: `A visitor got the fallback number because every number of the pool “${e.poolName}” was taken. Calls from such visitors cannot be attributed; add numbers to the pool or shorten its assignment time.`,
    details: { poolId: e.poolId, at: new Date(e.at).toISOString() },
  });
}

// ---- polling monitors ----

/** Delivery failures per campaign (or the company's other texts) over the company's window. */
async function evaluateDeliveries(ctx: AppContext, companyId: number, s: MonitorSettings, now: Date): Promise<void> {
  const cfg = s.deliveryFailures;
  const since = new Date(now.getTime() - cfg.windowMinutes * 60_000);
  const totals = cfg.enabled ? await repo.deliveryTotalsFor(ctx.db, companyId, since) : [];
  const firing = new Set<string>();
  for (const t of totals) {
    const sent = t.delivered + t.failed;
    const rate = pct(t.failed, sent);
    if (sent < cfg.minMessages || rate < cfg.percent) continue;
    const subjectId = t.campaign_id ? `campaign:${t.campaign_id}` : 'messages';
    firing.add(subjectId);
    const what = t.campaign_id ? `campaign #${t.campaign_id}` : 'text messages';
    await raiseAlert(
      ctx,
      {
        companyId,
        type: 'delivery_failures',
        severity: rate >= 50 ? 'critical' : 'warning',
        subjectType: t.campaign_id ? 'campaign' : 'company',
        subjectId,
        subjectLabel: t.campaign_id ? `Campaign #${t.campaign_id}` : 'Text messages',
        title: `${rate}% of ${what} failed to deliver`,
        message: `${t.failed} of ${sent} ${what === 'text messages' ? 'text messages' : `messages of ${what}`} failed in the last ${cfg.windowMinutes} minutes (alert at ${cfg.percent}%).`,
        details: {
          campaignId: t.campaign_id || null,
          delivered: t.delivered,
          failed: t.failed,
          ratePercent: rate,
          thresholdPercent: cfg.percent,
          windowMinutes: cfg.windowMinutes,
        },
      },
      now,
    );
  }
  for (const a of await repo.activeOfType(ctx.db, companyId, 'delivery_failures'))
    if (!firing.has(a.subject_id)) await resolveByMonitor(ctx, a, 'The failure rate fell below the threshold.');
}

/** One carrier error code repeating within the company's window. */
async function evaluateCarrierErrors(ctx: AppContext, companyId: number, s: MonitorSettings, now: Date): Promise<void> {
  const cfg = s.carrierError;
  const since = new Date(now.getTime() - cfg.windowMinutes * 60_000);
  const totals = cfg.enabled ? await repo.errorTotalsFor(ctx.db, companyId, since) : [];
  const firing = new Set<string>();
  for (const t of totals) {
    if (t.failed < cfg.count) continue;
    const subjectId = `error:${t.error_code}`;
    firing.add(subjectId);
    const text = carrierErrorText(Number(t.error_code)) ?? `Carrier error ${t.error_code}`;
    await raiseAlert(
      ctx,
      {
        companyId,
        type: 'carrier_error',
        subjectType: 'carrier_error',
        subjectId,
        subjectLabel: `Error ${t.error_code}`,
        title: `Carrier error ${t.error_code} repeated ${t.failed} times`,
        message: `${t.failed} messages failed with carrier error ${t.error_code} (${text}) in the last ${cfg.windowMinutes} minutes (alert at ${cfg.count}).`,
        details: { errorCode: Number(t.error_code), errorText: text, count: t.failed, threshold: cfg.count, windowMinutes: cfg.windowMinutes },
      },
      now,
    );
  }
  for (const a of await repo.activeOfType(ctx.db, companyId, 'carrier_error'))
    if (!firing.has(a.subject_id)) await resolveByMonitor(ctx, a, 'The error stopped repeating.');
}

/** Voicemails left unanswered past the company's time (at least an hour old). */
async function evaluateVoicemails(ctx: AppContext, now: Date): Promise<void> {
  const candidates = await repo.unansweredVoicemails(ctx.db, new Date(now.getTime() - 3600_000), 1000);
  const byCompany = new Map<number, typeof candidates>();
  for (const v of candidates) byCompany.set(v.company_id, [...(byCompany.get(v.company_id) ?? []), v]);
  const settings = await repo.settingsOf(ctx.db, [...byCompany.keys()]);
  for (const [companyId, list] of byCompany) {
    const cfg = settingsFrom(settings.get(companyId)).voicemailUnanswered;
    if (!cfg.enabled) continue;
    const due = list.filter((v) => new Date(v.left_at).getTime() <= now.getTime() - cfg.hours * 3600_000);
    if (due.length === 0) continue;
    const numbers = new Map(
      (
        await getCompanyNumbers(
          ctx,
          companyId,
          due.map((v) => v.number_id),
          { includeReleased: true },
        )
      ).map((n) => [n.id, n]),
    );
    for (const v of due) {
      const n = numbers.get(v.number_id);
      const on = n ? (n.label ? `${n.label} (${formatPhone(n.number)})` : formatPhone(n.number)) : `number #${v.number_id}`;
      const hours = Math.floor((now.getTime() - new Date(v.left_at).getTime()) / 3600_000);
      await raiseAlert(
        ctx,
        {
          companyId,
          type: 'voicemail_unanswered',
          subjectType: 'voicemail',
          subjectId: `voicemail:${v.call_id}`,
          subjectLabel: formatPhone(v.party),
          title: `Voicemail from ${formatPhone(v.party)} unanswered for ${hours} h`,
          message: `${formatPhone(v.party)} left a voicemail on ${on} ${hours} hours ago and nobody has called or texted back (alert after ${cfg.hours} h).`,
          details: {
            callId: v.call_id,
            voicemailId: v.voicemail_id,
            numberId: v.number_id,
            party: v.party,
            leftAt: new Date(v.left_at).toISOString(),
            thresholdHours: cfg.hours,
          },
          once: true,
        },
        now,
      );
    }
  }
}

let lastSilentRun = 0;

/**
 * One monitor run (the `alerts.tick` job): deliveries and carrier errors of companies with recent message outcomes
 * or active alerts of those monitors, unanswered voicemails, the re-check of active missed-call alerts, the
 * number-silence monitor at most hourly, and pruning of old counters. Idempotent.
 */
export async function runMonitors(ctx: AppContext, now = new Date()): Promise<void> {
  const since = new Date(now.getTime() - 24 * 3600_000);
  const companies = new Set([
    ...(await repo.companiesWithBuckets(ctx.db, since)),
    ...(await repo.companiesWithActive(ctx.db, 'delivery_failures')),
    ...(await repo.companiesWithActive(ctx.db, 'carrier_error')),
  ]);
  const settings = await repo.settingsOf(ctx.db, [...companies]);
  for (const companyId of companies) {
    const s = settingsFrom(settings.get(companyId));
    await evaluateDeliveries(ctx, companyId, s, now);
    await evaluateCarrierErrors(ctx, companyId, s, now);
  }
  await evaluateVoicemails(ctx, now);
  for (const companyId of await repo.companiesWithActive(ctx.db, 'missed_calls')) await checkMissedCalls(ctx, companyId, now);
  if (Math.abs(now.getTime() - lastSilentRun) >= monitorTuning.silentEveryMs) {
    lastSilentRun = now.getTime();
    await evaluateSilentNumbers(ctx, now);
  }
  await repo.pruneBuckets(ctx.db, since);
  await repo.pruneVoicemails(ctx.db, new Date(now.getTime() - 30 * 24 * 3600_000));
}

/** For tests: the next run checks silent numbers whatever the time of the last. */
export function resetSilentSchedule(): void {
  lastSilentRun = 0;
}
