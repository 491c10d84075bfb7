/**
 * The tracking script's public calls (spec 002 "DNI"; docs/tracking.md "Number assignment",
 * "Sessions"): a visit asks for a session (classified, matched to a pool, given a number, first
 * page view recorded), then sends page views and heartbeats while the page is open.
 *
 * Rules:
 * - A live session keeps its number: the script sends the session id it kept, or the visitor
 *   cookie finds the visitor's live session (another tab). A visit with new marketing facts (a
 *   new ad click, another campaign) ends the live session and starts a new one.
 * - Pools are tried by priority; the first whose source rules take the visit serves it. Its least
 *   recently used free number is given (the assignments of the same moment are one statement and
 *   one commit: `assigner`, `trackingRepository.assignSessions`); when
 *   none is free the visitor gets the pool's fallback number, the exhaustion episode is recorded
 *   just after the answer and `tracking.pool-exhausted` emitted once per episode (the live
 *   `dni pool exhausted` too).
 * - A session ends `session_duration_minutes` after it was last seen; its number rests for the
 *   pool's cool-down before another visitor gets it. The sweep job announces ended sessions.
 * Every change is published live on `company.{companyId}` as `dni visitor`.
 */
import { randomUUID } from 'node:crypto';
import type { DniFeedVisitor, DniPublicSessionBody, DniPublicSessionInput, TrafficSource } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { events } from '../../platform/events/index.js';
import { GroupCommit } from '../../platform/db/group-commit.js';
import { NotFoundError } from '../../platform/http/errors.js';
import { adIdsOf, hasAdIds } from './ad-ids.js';
import { classifyVisit, deviceLabel, poolTakesVisit, type Visit } from './classify.js';
import { publicCompany, type PublicCompany, type PublicPool } from './public-cache.js';
import { trackingRepository, type NewSession, type SessionRow } from './tracking.repository.js';
import { isUuid } from './tracking.service.js';

/** Seconds between the script's heartbeats while the page is open. */
export const HEARTBEAT_S = 60;
/** A session without a pool (no pool took the visit) lasts this long without activity. */
const NO_POOL_SESSION_MINUTES = 30;
/** The sweep job that announces ended sessions. */
export const SESSION_SWEEP_JOB = 'tracking.sweep-sessions';

/** The request's facts the public path uses besides the body. */
export type PublicRequestMeta = { cookieVisitorId: string | undefined; userAgent: string | undefined };

/** The live-feed shape of a session. */
export function toFeedVisitor(s: SessionRow, poolName: string | null): DniFeedVisitor {
  return {
    session_id: s.id,
    traffic_source: s.traffic_source as TrafficSource,
    source: s.source,
    medium: s.medium,
    campaign: s.campaign,
    keyword: s.keyword,
    page_url: s.last_page_url,
    page_title: s.last_page_title,
    number: s.number,
    fallback: s.fallback,
    pool_id: s.pool_id,
    pool_name: poolName,
    started_at: s.started_at.toISOString(),
    last_seen_at: s.last_seen_at.toISOString(),
    page_views: s.page_views,
    device: s.device,
  };
}

/** Publishes `dni visitor` on the company's channel (the payload is not even built while nobody can receive it). */
function publishVisitor(ctx: AppContext, type: 'started' | 'moved' | 'ended', s: SessionRow, poolName: string | null): void {
  const channel = `company.${s.company_id}` as const;
  if (!ctx.realtime.mayHaveSubscribers(channel)) return;
  ctx.realtime.send(channel, 'dni visitor', { type, visitor: toFeedVisitor(s, poolName) });
}

/** Whether the visit brings marketing facts other than the session's (a new click or campaign). */
function isNewTouch(v: Visit, s: SessionRow): boolean {
  if (v.trafficSource === 'direct') return false;
  if (v.trafficSource !== s.traffic_source) return true;
  const clicks: Array<keyof Visit & keyof SessionRow> = ['gclid', 'gbraid', 'wbraid', 'msclkid', 'fbclid'];
  if (clicks.some((k) => v[k] !== null && v[k] !== s[k])) return true;
  return (v.campaign ?? null) !== (s.campaign ?? null) || (v.source ?? null) !== (s.source ?? null);
}

function swapsOf(company: PublicCompany, s: SessionRow): Array<{ target: string; number: string }> {
  const pool = company.pools.find((p) => p.id === s.pool_id);
  if (!pool || !s.number) return [];
  return pool.targets.filter((t) => t !== s.number).map((target) => ({ target, number: s.number! }));
}

function poolNameOf(company: PublicCompany, s: SessionRow): string | null {
  return company.pools.find((p) => p.id === s.pool_id)?.name ?? null;
}

type AssignedSession = SessionRow & { pool_was_exhausted: boolean };
const assigners = new WeakMap<AppContext, GroupCommit<NewSession, AssignedSession>>();
/**
 * Group commit of new sessions (docs/tracking.md "Performance"): the assignments waiting at one
 * moment (up to 64; items queue while both slots are busy) become ONE statement committed without
 * waiting for its WAL flush (`trackingRepository.assignSessions`): one round trip per batch, however
 * large. The statement takes its numbers `for update skip locked`, so two batches (on any node)
 * never take one number, and gives each visitor of a pool in the batch a different one. A failing
 * batch runs its items again one by one (GroupCommit's `isolateFailures`).
 */
function assigner(ctx: AppContext): GroupCommit<NewSession, AssignedSession> {
  let g = assigners.get(ctx);
  if (!g) {
    g = new GroupCommit<NewSession, AssignedSession>({
      maxWaitMs: 0,
      maxItems: 64,
      concurrency: 2,
      owner: ctx,
      run: (items) => trackingRepository.assignSessions(ctx.db, items),
    });
    assigners.set(ctx, g);
  }
  return g;
}

/** A pool's exhaustion fact of one answer: a visitor got the fallback number, or a number again after an episode. */
type ExhaustionFact = { companyId: number; poolId: number; poolName: string; fallback: boolean };
const exhaustionBooks = new WeakMap<AppContext, GroupCommit<ExhaustionFact, void>>();
/**
 * The exhaustion bookkeeping (docs/tracking.md "Pools"), off the answer's path: the visitor is answered with the
 * fallback number (or a pool number) at once; the episode is opened, counted or ended just after, in answer order
 * (one batch at a time), consecutive fallbacks of one pool counted in one statement. The episode's opener announces
 * it once (`dni pool exhausted` live, `tracking.pool-exhausted`). A pool's failure is logged and does not stop the
 * other pools' facts.
 */
function exhaustionBook(ctx: AppContext): GroupCommit<ExhaustionFact, void> {
  let g = exhaustionBooks.get(ctx);
  if (!g) {
    g = new GroupCommit<ExhaustionFact, void>({
      maxWaitMs: 0,
      maxItems: 256,
      concurrency: 1,
      owner: ctx,
      run: async (facts) => {
        // Per pool, in order: runs of fallbacks become one count, a number given again ends the episode.
        const steps: Array<ExhaustionFact & { n: number }> = [];
        for (const f of facts) {
          const last = steps.findLast((x) => x.poolId === f.poolId);
          if (last && last.fallback && f.fallback) last.n++;
          else if (!(last && !last.fallback && !f.fallback)) steps.push({ ...f, n: 1 });
        }
        for (const step of steps) {
          try {
            if (!step.fallback) await trackingRepository.endExhaustion(ctx.db, step.poolId);
            else {
              // The episode's opening and its `tracking.pool-exhausted` commit together (the outbox).
              const at = new Date();
              const emitted = await ctx.db
                .transaction()
                .execute(async (tx) =>
                  (await trackingRepository.countFallbacks(tx, step.companyId, step.poolId, step.n))
                    ? events.emit(tx, 'tracking.pool-exhausted', { companyId: step.companyId, poolId: step.poolId, poolName: step.poolName, at })
                    : undefined,
                );
              if (emitted) {
                ctx.realtime.send(`company.${step.companyId}`, 'dni pool exhausted', { pool_id: step.poolId, pool_name: step.poolName, at: at.toISOString() });
                await events.dispatch(ctx, emitted);
              }
            }
          } catch (e) {
            // One pool's failure does not keep the others' facts from being recorded.
            ctx.log.warn({ err: e, poolId: step.poolId }, 'tracking: could not record the pool exhaustion');
          }
        }
        return facts.map(() => undefined);
      },
    });
    exhaustionBooks.set(ctx, g);
  }
  return g;
}

/** Records an exhaustion fact without the visitor waiting for it (see {@link exhaustionBook}). */
function noteExhaustion(ctx: AppContext, fact: ExhaustionFact): void {
  exhaustionBook(ctx)
    .submit(fact)
    .catch((e: unknown) => ctx.log.warn({ err: e, poolId: fact.poolId }, 'tracking: could not record the pool exhaustion'));
}

const sweepClaimedAt = new WeakMap<AppContext, number>();
/**
 * Makes sure the sweep job runs by `at` (asks the database at most once per 20 s per process). Off
 * the answer's path: the visitor does not wait for it; a failure is logged (the next session after
 * 20 s claims again).
 */
function scheduleSweep(ctx: AppContext, at: Date): void {
  if (Date.now() - (sweepClaimedAt.get(ctx) ?? 0) < 20_000) return;
  sweepClaimedAt.set(ctx, Date.now());
  const due = new Date(at.getTime() + 1000);
  trackingRepository
    .claimSweep(ctx.db, due)
    .then((claimed) => (claimed ? ctx.queue.enqueue(SESSION_SWEEP_JOB, { due: due.toISOString() }, { startAfter: due }) : undefined))
    .catch((e: unknown) => {
      sweepClaimedAt.delete(ctx);
      ctx.log.warn({ err: e }, 'tracking: could not schedule the session sweep');
    });
}

const seenAt = new WeakMap<AppContext, Map<number, number>>();
/**
 * Records the page the script was last seen on (the script screen), at most once a minute per
 * company and process. Off the answer's path: the visitor does not wait for it; a failure is logged.
 */
function noteSeen(ctx: AppContext, companyId: number, url: string): void {
  let m = seenAt.get(ctx);
  if (!m) seenAt.set(ctx, (m = new Map()));
  if (Date.now() - (m.get(companyId) ?? 0) < 60_000) return;
  if (m.size > 10_000) m.clear();
  m.set(companyId, Date.now());
  trackingRepository
    .touchSettingsSeen(ctx.db, companyId, url)
    .catch((e: unknown) => ctx.log.warn({ err: e, companyId }, 'tracking: could not note the page seen'));
}

/** Stores the GA4 and Meta browser ids the script read (ad-ids.ts), when the visit carried any. */
async function keepAdIds(ctx: AppContext, companyId: number, sessionId: string, input: DniPublicSessionInput, fbclid: string | null): Promise<void> {
  const ids = adIdsOf(input, fbclid, Date.now());
  if (hasAdIds(ids)) await trackingRepository.setAdIds(ctx.db, companyId, sessionId, ids);
}

async function companyOf(ctx: AppContext, key: string): Promise<PublicCompany> {
  const company = await publicCompany(ctx, key);
  if (!company) throw new NotFoundError('Tracking key');
  return company;
}

/**
 * `POST /api/dni/public/{key}/session`: continues the visitor's live session or starts one (see
 * the module doc). The visitor id comes from the first-party cookie, else the body, else is new.
 * @returns the session id, visitor id (the route sets the cookie), the swaps and the heartbeat period.
 * @throws NotFoundError 404 for an unknown key.
 */
export async function openSession(ctx: AppContext, key: string, input: DniPublicSessionInput, meta: PublicRequestMeta): Promise<DniPublicSessionBody> {
  const company = await companyOf(ctx, key);
  const known = meta.cookieVisitorId && isUuid(meta.cookieVisitorId) ? meta.cookieVisitorId : (input.visitor_id ?? null);
  const visitorId = known ?? randomUUID();
  const visit = classifyVisit(input.url, input.referrer ?? null);
  const page = { url: input.url.slice(0, 2000), title: input.title ?? null };

  const kept = input.session_id
    ? await trackingRepository.findSession(ctx.db, company.companyId, input.session_id)
    : known
      ? await trackingRepository.liveSessionOfVisitor(ctx.db, company.companyId, known)
      : undefined;
  if (kept && kept.expires_at.getTime() > Date.now()) {
    if (isNewTouch(visit, kept)) await trackingRepository.endSessionNow(ctx.db, company.companyId, kept.id);
    else {
      const touched = await trackingRepository.touchSession(ctx.db, company.companyId, kept.id, page);
      if (touched) {
        await keepAdIds(ctx, company.companyId, touched.id, input, touched.fbclid);
        publishVisitor(ctx, 'moved', touched, poolNameOf(company, touched));
        return { session_id: touched.id, visitor_id: touched.visitor_id, swaps: swapsOf(company, touched), heartbeat_s: HEARTBEAT_S };
      }
    }
  }

  const pool: PublicPool | undefined = company.pools.find((p) => poolTakesVisit(p.rules, visit, input.url));
  const session = await assigner(ctx).submit({
    id: randomUUID(),
    companyId: company.companyId,
    poolId: pool?.id ?? null,
    visitorId: kept?.visitor_id ?? visitorId,
    trafficSource: visit.trafficSource,
    source: visit.source,
    medium: visit.medium,
    campaign: visit.campaign,
    keyword: visit.keyword,
    content: visit.content,
    landingPage: visit.landingPage,
    referrer: visit.referrer,
    gclid: visit.gclid,
    gbraid: visit.gbraid,
    wbraid: visit.wbraid,
    msclkid: visit.msclkid,
    fbclid: visit.fbclid,
    touch: { traffic_source: visit.trafficSource, source: visit.source, medium: visit.medium, campaign: visit.campaign, keyword: visit.keyword },
    sessionMinutes: pool?.sessionMinutes ?? NO_POOL_SESSION_MINUTES,
    coolDownMinutes: pool?.coolDownMinutes ?? 0,
    fallbackNumber: pool?.fallback ?? null,
    pageUrl: page.url,
    pageTitle: page.title,
    device: deviceLabel(meta.userAgent),
  });
  if (pool && (session.fallback || session.pool_was_exhausted))
    noteExhaustion(ctx, { companyId: company.companyId, poolId: pool.id, poolName: pool.name, fallback: session.fallback });
  await keepAdIds(ctx, company.companyId, session.id, input, visit.fbclid);
  publishVisitor(ctx, 'started', session, pool?.name ?? null);
  noteSeen(ctx, company.companyId, page.url);
  scheduleSweep(ctx, session.expires_at);
  return { session_id: session.id, visitor_id: session.visitor_id, swaps: swapsOf(company, session), heartbeat_s: HEARTBEAT_S };
}

/**
 * `POST .../pageview` (a page of a single-page site, or `page` null for `.../heartbeat`): extends
 * the live session. @returns `active` false when it had ended (the script then opens a new one).
 * @throws NotFoundError 404 for an unknown key.
 */
export async function touchPublicSession(
  ctx: AppContext,
  key: string,
  sessionId: string,
  page: { url: string; title: string | null } | null,
): Promise<{ active: boolean }> {
  const company = await companyOf(ctx, key);
  const s = await trackingRepository.touchSession(ctx.db, company.companyId, sessionId, page ? { url: page.url.slice(0, 2000), title: page.title } : null);
  if (s && page) publishVisitor(ctx, 'moved', s, poolNameOf(company, s));
  return { active: s !== undefined };
}

/**
 * `GET .../forget` (consent withdrawn; docs/tracking.md "Consent"): ends the visitor's live sessions now, so their
 * numbers go into cool-down and the live feed shows them `ended`; the route removes the cookie. Past attribution
 * stays. `visitorId`: the cookie's visitor id (nothing to end without one).
 * @throws NotFoundError 404 for an unknown key.
 */
export async function forgetVisitor(ctx: AppContext, key: string, visitorId: string | undefined): Promise<PublicCompany> {
  const company = await companyOf(ctx, key);
  if (visitorId && isUuid(visitorId))
    for (const s of await trackingRepository.endVisitorSessions(ctx.db, company.companyId, visitorId)) publishVisitor(ctx, 'ended', s, s.pool_name);
  return company;
}

/**
 * The sweep job (data `{due}`: the time it was claimed for): marks ended sessions (past their end)
 * and announces each once (`dni visitor` `ended`); hands over to a successor at the next live
 * session's end while any remain, if its claim is still the current one (else another sweep is
 * already due). Idempotent; a duplicate only sweeps.
 */
export async function sweepSessions(ctx: AppContext, data: { due?: string }): Promise<void> {
  const ended = await trackingRepository.endExpiredSessions(ctx.db, 500);
  for (const s of ended) publishVisitor(ctx, 'ended', s, s.pool_name);
  if (!data.due) return;
  const next = ended.length === 500 ? new Date() : await trackingRepository.nextSessionEnd(ctx.db);
  const due = next ? new Date(Math.max(next.getTime(), Date.now()) + 1000) : null;
  if (await trackingRepository.handOverSweep(ctx.db, new Date(data.due), due))
    await ctx.queue.enqueue(SESSION_SWEEP_JOB, { due: due!.toISOString() }, { startAfter: due! });
}
