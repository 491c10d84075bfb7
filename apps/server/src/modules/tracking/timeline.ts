/**
 * Session timelines, the real-time feed and a call's attribution (spec 002 "DNI":
 * `GET .../dniTimelineEvents/{sessionId}`, `.../dniTimelineEventsByNumber/{number}`,
 * `.../dni/realTimeFeed`; docs/tracking.md "Timeline"). Any active member of the company reads
 * them; another company's session or call answers 404.
 *
 * A timeline is the visitor's journey, oldest first: the session's start, the number shown (or
 * the fallback), each page view, the calls attributed to the session, the lead's texts while the
 * session lasted (and a day after), and the end once it has passed.
 */
import type { DniCallAttribution, DniRealTimeFeedBody, DniSession, DniTimelineEvent, Touch, TrafficSource } from '@switchboard/contracts';
import { parsePhone } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import { NotFoundError, fieldError } from '../../platform/http/errors.js';
import { assertCompanyAccess } from '../companies/companies.service.js';
import { toFeedCall } from './attribution.js';
import { toFeedVisitor } from './assignment.js';
import { trackingRepository, type AttributionRow, type SessionRow } from './tracking.repository.js';

const DAY_MS = 86_400_000;

function clickIds(r: Pick<SessionRow, 'gclid' | 'gbraid' | 'wbraid' | 'msclkid' | 'fbclid'>) {
  return { gclid: r.gclid, gbraid: r.gbraid, wbraid: r.wbraid, msclkid: r.msclkid, fbclid: r.fbclid };
}

function toTouch(t: { traffic_source: string; source: string | null; medium: string | null; campaign: string | null; keyword: string | null }): Touch {
  return { traffic_source: t.traffic_source as TrafficSource, source: t.source, medium: t.medium, campaign: t.campaign, keyword: t.keyword };
}

/** The API shape of a session. */
export function toSessionDto(s: SessionRow, poolName: string | null): DniSession {
  return {
    id: s.id,
    company_id: s.company_id,
    pool_id: s.pool_id,
    pool_name: poolName,
    visitor_id: s.visitor_id,
    lead_id: s.lead_id,
    number: s.number,
    fallback: s.fallback,
    traffic_source: s.traffic_source as TrafficSource,
    source: s.source,
    medium: s.medium,
    campaign: s.campaign,
    keyword: s.keyword,
    content: s.content,
    landing_page: s.landing_page,
    referrer: s.referrer,
    click_ids: clickIds(s),
    first_touch: toTouch(s.first_touch),
    started_at: s.started_at.toISOString(),
    last_seen_at: s.last_seen_at.toISOString(),
    ended_at: s.ended_at?.toISOString() ?? (s.expires_at.getTime() <= Date.now() ? s.expires_at.toISOString() : null),
    active: s.expires_at.getTime() > Date.now(),
    page_views: s.page_views,
    calls: s.calls,
    device: s.device,
  };
}

function event(e: Partial<DniTimelineEvent> & Pick<DniTimelineEvent, 'at' | 'kind' | 'session_id'>): DniTimelineEvent {
  return { page_url: null, page_title: null, number: null, call_id: null, from: null, duration_s: null, status: null, ...e };
}

/** Timelines of sessions (same order as `sessions`). One statement per kind of event for all sessions. */
async function timelines(ctx: AppContext, sessions: Array<SessionRow & { pool_name: string | null }>) {
  const ids = sessions.map((s) => s.id);
  const [views, calls] = await Promise.all([trackingRepository.pageViewsOf(ctx.db, ids), trackingRepository.attributionsOfSessions(ctx.db, ids)]);
  const out = [];
  for (const s of sessions) {
    const end = s.ended_at ?? (s.expires_at.getTime() <= Date.now() ? s.expires_at : null);
    const list: DniTimelineEvent[] = [
      event({ at: s.started_at.toISOString(), kind: 'session_started', session_id: s.id, page_url: s.landing_page, number: s.number }),
    ];
    if (s.number)
      list.push(event({ at: s.started_at.toISOString(), kind: s.fallback ? 'fallback_shown' : 'number_assigned', session_id: s.id, number: s.number }));
    for (const v of views.filter((x) => x.session_id === s.id)) {
      list.push(event({ at: v.at.toISOString(), kind: 'page_view', session_id: s.id, page_url: v.url, page_title: v.title, number: v.number }));
    }
    for (const c of calls.filter((x) => x.session_id === s.id)) {
      list.push(
        event({
          at: c.started_at.toISOString(),
          kind: 'call',
          session_id: s.id,
          number: c.number,
          call_id: c.call_id,
          from: c.from_number,
          duration_s: c.duration_s,
          status: c.status,
        }),
      );
    }
    if (s.lead_id) {
      const until = new Date((end ?? new Date()).getTime() + DAY_MS);
      for (const t of await trackingRepository.textsOfLead(ctx.db, s.lead_id, s.started_at, until)) {
        list.push(event({ at: t.at.toISOString(), kind: 'text', session_id: s.id, from: t.from_number }));
      }
    }
    if (end) list.push(event({ at: end.toISOString(), kind: 'session_ended', session_id: s.id, number: s.number }));
    list.sort((a, b) => a.at.localeCompare(b.at));
    out.push({ session: toSessionDto(s, s.pool_name), events: list });
  }
  return out;
}

/** `GET .../dniTimelineEvents/{sessionId}` (any member). @throws NotFoundError 404. */
export async function sessionTimeline(ctx: AppContext, userId: number, companyId: number, sessionId: string) {
  await assertCompanyAccess(ctx, userId, companyId);
  const [s] = await trackingRepository.sessionsWithPool(ctx.db, companyId, [sessionId]);
  if (!s) throw new NotFoundError('Session');
  return (await timelines(ctx, [s]))[0]!;
}

/**
 * `GET .../dniTimelineEventsByNumber/{number}` (any member): the sessions shown this number
 * (newest first, `limit`, optionally started within `from`..`to`), each with its timeline.
 * @throws ValidationError 422 `number` when it is no phone number.
 */
export async function numberTimeline(ctx: AppContext, userId: number, companyId: number, number: string, q: { from?: string; to?: string; limit: number }) {
  await assertCompanyAccess(ctx, userId, companyId);
  const e164 = parsePhone(number);
  if (!e164) throw fieldError('number', 'The number is not a valid phone number.');
  const ids = await trackingRepository.sessionsOfNumber(ctx.db, companyId, e164, q.from ? new Date(q.from) : null, q.to ? new Date(q.to) : null, q.limit);
  const rows = await trackingRepository.sessionsWithPool(ctx.db, companyId, ids);
  const ordered = ids.map((id) => rows.find((r) => r.id === id)!).filter(Boolean);
  return { number: e164, data: await timelines(ctx, ordered) };
}

/** `GET .../dni/realTimeFeed` (any member): live visitors (latest activity first, up to 200) and the latest calls. */
export async function realTimeFeed(ctx: AppContext, userId: number, companyId: number, callsLimit: number): Promise<DniRealTimeFeedBody> {
  await assertCompanyAccess(ctx, userId, companyId);
  const [visitors, calls] = await Promise.all([
    trackingRepository.liveSessions(ctx.db, companyId, 200),
    trackingRepository.recentAttributions(ctx.db, companyId, callsLimit),
  ]);
  return {
    visitors: visitors.map((s) => toFeedVisitor(s, s.pool_name)),
    calls: calls.map((c) => toFeedCall(c, c.pool_name)),
    generated_at: new Date().toISOString(),
  };
}

/** The API shape of a call's attribution. */
export function toAttributionDto(a: AttributionRow & { pool_name: string | null }): DniCallAttribution {
  const last = a.traffic_source
    ? toTouch({ traffic_source: a.traffic_source, source: a.source, medium: a.medium, campaign: a.campaign, keyword: a.keyword })
    : null;
  return {
    call_id: a.call_id,
    company_id: a.company_id,
    started_at: a.started_at.toISOString(),
    is_first_contact: a.is_first_contact,
    lead_id: a.lead_id,
    method: a.method as DniCallAttribution['method'],
    pool_id: a.pool_id,
    pool_name: a.pool_name,
    static_source_id: a.static_source_id,
    session_id: a.session_id,
    last_touch: last,
    first_touch: a.first_touch ? toTouch(a.first_touch) : null,
    landing_page: a.landing_page,
    referrer: a.referrer,
    click_ids: clickIds(a),
  };
}

/** `GET .../dniCallAttribution/{callId}` (any member). @throws NotFoundError 404 (unknown, outbound, or another company's call). */
export async function callAttribution(ctx: AppContext, userId: number, companyId: number, callId: number) {
  await assertCompanyAccess(ctx, userId, companyId);
  const a = await trackingRepository.findAttribution(ctx.db, companyId, callId);
  if (!a) throw new NotFoundError('Call');
  return { data: toAttributionDto(a) };
}
