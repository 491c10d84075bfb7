/**
 * The activity feed (spec 001 §3 "Activity item kinds", §7 "GET /activity"): calls, voicemails,
 * messages and call-tracking matches (`trackingmatch`) of a company, newest first, page-numbered.
 *
 * Filter (spec 001 §7): the type flags (calls, voicemails, messages, faxes on; notes off;
 * `trackingmatch` on), `dniSessionId` (the calls of one tracked visit and its match items) and the
 * report filters of `GET /analytics/calls` (docs/analytics.md "Activity"):
 * - with a report filter or a session, calls are picked in the reporting store (`callIdsMatching`,
 *   days of `dates` local to `tz`); the calls/voicemails flags become answer-status conditions;
 * - messages follow `dates` and `number_ids` only; a call-only filter (first contact, traffic
 *   source, pools, answer status, …) or a session leaves them out, as they have no such property;
 * - match items follow the session and the dates; call-only filters leave them out.
 *
 * Merge strategy: for page p of size n each source returns its newest p·n entries; they are merged
 * by time and the slice [(p-1)·n, p·n) is answered. That is exact (every entry of the page is among
 * the newest p·n of its own source) and costs O(p·n) rows. `total` is the sum of the sources' totals.
 * Faxes come from the fax module (`faxActivity`: dates and numbers, like messages). Notes (flag `notes`, off by default)
 * come from the notes module (`companyNotesActivity`): kind `note`, the body as `content`, the author, and for a note on
 * a call the call's number, parties and contact; they follow `dates` only (the note's time), so a number or a call-only
 * filter or a session leaves them out (a note has no number of its own). Answers are cached 5 s (spec 001 §9 "Analytics activity cache")
 * and dropped as soon as the company's calls or messages change. `meta.show_progress` carries the
 * first-page progress rule (hidden when page is 1 and per_page is 10).
 */
import { ANALYTICS_ACTIVITY_CACHE_MS, ANSWER_STATUS_NAMES, type ActivityItem, type ActivityQuery, type AnswerStatusName } from '@switchboard/contracts';
import { callStatusLabel, isValidTimeZone } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import { pageMeta, type PageMeta } from '../../platform/http/page.js';
import { cachedCompanyAnswer, callFactSummaries, callIdsMatching, hasCallReportFilters, rangeOfDates } from '../analytics/analytics.service.js';
import { cachedCallerIds, listCallerId } from '../caller-id/caller-id.service.js';
import { callActivityOf, knownParties, listCallActivity, type CallActivityRow } from '../calls/calls.service.js';
import { assertCompanyAccess, companyTimeZone } from '../companies/companies.service.js';
import { listMessageActivity, messageActivityIn } from '../conversations/conversations.service.js';
import { faxActivity } from '../fax/fax.reporting.js';
import { companyNotesActivity } from '../notes/notes.service.js';
import { getCompanyNumbers } from '../numbers/numbers.service.js';
import { listTrackingMatchActivity, type TrackingMatchActivity } from '../tracking/tracking.service.js';
import { getUserNames } from '../users/users.service.js';

type Sortable = { at: Date; item: ActivityItem };
type CallEntry = { kind: 'call' | 'voicemail'; row: CallActivityRow; statusLabel: string };

/** Filters that only calls have: with one of them, messages and match items are left out. */
function hasCallOnlyFilter(f: ActivityQuery['filter']): boolean {
  const { dates: _d, number_ids: _n, companies: _c, businessUnits: _b, timezone: _t, attributionModel: _m, ...rest } = f;
  return hasCallReportFilters(rest) || f.dniSessionId !== undefined;
}

/**
 * `GET /activity`. `tz` (else the company's zone) gives the local days of `filter.dates`; times are ISO UTC.
 * @throws ForbiddenError (403) without access to the company; ValidationError (422) for bad dates.
 */
export async function listActivity(
  ctx: AppContext,
  userId: number,
  q: ActivityQuery,
): Promise<{ data: ActivityItem[]; meta: PageMeta & { show_progress: boolean } }> {
  const companyId = q.company;
  await assertCompanyAccess(ctx, userId, companyId);
  return cachedCompanyAnswer(ctx, [companyId], `activity:${JSON.stringify(q)}`, ANALYTICS_ACTIVITY_CACHE_MS, () => buildActivity(ctx, q));
}

async function buildActivity(ctx: AppContext, q: ActivityQuery): Promise<{ data: ActivityItem[]; meta: PageMeta & { show_progress: boolean } }> {
  const companyId = q.company;
  const window = q.page * q.per_page;
  const f = q.filter;
  const sessionId = f.dniSessionId !== undefined ? String(f.dniSessionId) : undefined;
  const reportFiltered = hasCallReportFilters(f) || sessionId !== undefined;
  const callOnly = hasCallOnlyFilter(f);
  const zoneText = q.tz ?? f.timezone;
  const timeZone = zoneText && isValidTimeZone(zoneText) ? zoneText : await companyTimeZone(ctx, companyId);

  // Calls and voicemails: the calls module's feed, or the ids the reporting store picks.
  const callsPart = async (): Promise<{ entries: CallEntry[]; total: number }> => {
    if (!f.calls && !f.voicemails) return { entries: [], total: 0 };
    if (!reportFiltered) {
      const r = await listCallActivity(ctx, companyId, { limit: window, offset: 0, calls: f.calls, voicemails: f.voicemails });
      return {
        total: r.total,
        entries: r.items.map((c) => ({
          kind: c.kind,
          statusLabel: c.status_label ?? '',
          row: {
            id: c.id,
            started_at: new Date(c.created_at),
            number_id: c.number_id,
            from_number: c.from,
            to_number: c.to,
            direction: c.direction,
            status: c.status,
            duration_s: c.duration_s ?? 0,
            contact_id: c.contact_id,
            voicemail: c.voicemail,
          },
        })),
      };
    }
    let statuses: AnswerStatusName[] = [...(f.answerStatus ?? ANSWER_STATUS_NAMES)];
    if (!f.voicemails) statuses = statuses.filter((s) => s !== 'voicemail');
    if (!f.calls) statuses = statuses.filter((s) => s === 'voicemail');
    if (statuses.length === 0) return { entries: [], total: 0 };
    const narrowed = statuses.length === ANSWER_STATUS_NAMES.length ? f.answerStatus : statuses;
    const { ids, total } = await callIdsMatching(ctx, companyId, { ...f, answerStatus: narrowed, dniSessionId: sessionId }, timeZone, window);
    const rows = await callActivityOf(ctx, companyId, ids);
    return { total, entries: rows.map((row) => ({ kind: row.voicemail ? 'voicemail' : 'call', row, statusLabel: callStatusLabel(row.status) })) };
  };

  const messagesPart = async () => {
    if (!f.messages || callOnly) return { rows: [], total: 0 };
    if (!f.dates && !(f.number_ids?.length ?? 0)) return listMessageActivity(ctx, companyId, window);
    const range = f.dates ? datesRange(f.dates, timeZone) : { from: new Date(0), to: new Date('9999-01-01T00:00:00Z') };
    return messageActivityIn(ctx, companyId, { ...range, numberIds: f.number_ids, limit: window });
  };

  const matchesPart = async (): Promise<{ items: TrackingMatchActivity[]; total: number }> => {
    if (!f.trackingmatch || (callOnly && sessionId === undefined) || (sessionId !== undefined && hasCallOnlyFilterBesidesSession(f)))
      return { items: [], total: 0 };
    const r = await listTrackingMatchActivity(ctx, companyId, { limit: window, sessionId });
    if (!f.dates) return r;
    const range = datesRange(f.dates, timeZone);
    const items = r.items.filter((m) => m.at >= range.from && m.at < range.to);
    return { items, total: items.length };
  };

  // Faxes (the fax module's read-only query): like messages, dates and numbers only.
  const faxesPart = async () => {
    if (!f.faxes || callOnly) return { rows: [], total: 0 };
    const range = f.dates ? datesRange(f.dates, timeZone) : { from: new Date(0), to: new Date('9999-01-01T00:00:00Z') };
    return faxActivity(ctx, companyId, { ...range, numberIds: f.number_ids, limit: window });
  };

  // Notes (the notes module's feed query): dates only; any other narrowing leaves them out.
  const notesPart = async () => {
    if (!f.notes || callOnly || (f.number_ids?.length ?? 0) > 0) return { notes: [], total: 0 };
    const range = f.dates ? datesRange(f.dates, timeZone) : {};
    return companyNotesActivity(ctx, companyId, { ...range, limit: window });
  };

  const [calls, messages, matches, faxes, notes] = await Promise.all([callsPart(), messagesPart(), matchesPart(), faxesPart(), notesPart()]);
  const noteCallIds = notes.notes.filter((n) => n.model_type === 'call').map((n) => n.model_id);
  const [relatedCalls, authors] = await Promise.all([
    callActivityOf(ctx, companyId, [...matches.items.map((m) => m.callId), ...noteCallIds]),
    getUserNames(ctx, [...new Set(notes.notes.map((n) => n.user_id).filter((id): id is number => id !== null))]),
  ]);
  const matchCalls = new Map(relatedCalls.map((r) => [r.id, r]));
  const facts = await callFactSummaries(
    ctx,
    calls.entries.map((e) => e.row.id),
  );

  // Known callers by name: the contact a call or conversation was matched to, else the contact
  // with that number now (created later); one statement each for ids and numbers.
  const partyOf = (r: CallActivityRow) => (r.direction === 'outbound' ? r.to_number : r.from_number);
  const noteCall = (n: (typeof notes.notes)[number]) => (n.model_type === 'call' ? matchCalls.get(n.model_id) : undefined);
  const contacts = await knownParties(ctx, companyId, [
    ...calls.entries.map((c) => ({ contactId: c.row.contact_id, party: partyOf(c.row) })),
    ...messages.rows.map((m) => ({ contactId: m.contact_id, party: m.recipient })),
    ...faxes.rows.map((x) => ({ contactId: null, party: x.remote })),
    ...notes.notes.map((n) => {
      const call = noteCall(n);
      return { contactId: call?.contact_id ?? null, party: call ? partyOf(call) : '' };
    }),
  ]);
  // Cached caller names (docs/caller-id.md), no provider requests: the contact's name first.
  const callerIds = await cachedCallerIds(ctx, [...calls.entries.map((c) => partyOf(c.row)), ...messages.rows.map((m) => m.recipient)]);
  const callContact = (i: number) => contacts[i] ?? null;
  const messageContact = (i: number) => contacts[calls.entries.length + i] ?? null;
  const numberIds = [
    ...calls.entries.map((c) => c.row.number_id),
    ...messages.rows.map((m) => m.number_id),
    ...[...matchCalls.values()].map((r) => r.number_id),
    ...faxes.rows.map((x) => x.number_id),
    ...notes.notes.flatMap((n) => noteCall(n)?.number_id ?? []),
  ];
  const numbers = new Map((await getCompanyNumbers(ctx, companyId, numberIds, { includeReleased: true })).map((n) => [n.id, n]));
  const numberOf = (id: number, fallback: string) => ({ id, number: numbers.get(id)?.number ?? fallback, label: numbers.get(id)?.label ?? '' });

  const merged: Sortable[] = [];
  for (const [i, c] of calls.entries.entries()) {
    const r = c.row;
    const isVoicemail = c.kind === 'voicemail';
    const fact = facts.get(r.id);
    merged.push({
      at: new Date(r.started_at),
      item: {
        id: `${c.kind}-${isVoicemail ? (r.voicemail?.id ?? r.id) : r.id}`,
        kind: c.kind,
        created_at: new Date(r.started_at).toISOString(),
        number: numberOf(r.number_id, r.direction === 'outbound' ? r.from_number : r.to_number),
        call_id: r.id,
        from: r.from_number,
        to: r.to_number,
        direction: r.direction === 'outbound' ? 'outbound' : 'inbound',
        status_label: c.statusLabel || null,
        duration_s: isVoicemail ? (r.voicemail?.duration_s ?? r.duration_s) : r.duration_s,
        recording_url: r.voicemail?.recording_url ?? null,
        ...(isVoicemail && r.voicemail ? { is_read: r.voicemail.is_read } : {}),
        contact: callContact(i),
        enhanced_caller_id: listCallerId(callerIds, partyOf(r), callContact(i)),
        ...(fact ? { answer_status: fact.answerStatus, is_first_contact: fact.isFirstContact, traffic_source: fact.trafficSource } : {}),
      },
    });
  }
  for (const [i, m] of messages.rows.entries()) {
    const business = numbers.get(m.number_id)?.number ?? '';
    merged.push({
      at: m.created_at,
      item: {
        id: `message-${m.id}`,
        kind: 'message',
        created_at: m.created_at.toISOString(),
        number: { id: m.number_id, number: business, label: numbers.get(m.number_id)?.label ?? '' },
        from: m.is_inbound ? m.recipient : business,
        to: m.is_inbound ? business : m.recipient,
        direction: m.is_inbound ? 'inbound' : 'outbound',
        content: m.body,
        delivery_state: m.delivery_state,
        error_code: m.error_code,
        media: m.media ?? [],
        is_read: m.is_read,
        contact: messageContact(i),
        enhanced_caller_id: listCallerId(callerIds, m.recipient, messageContact(i)),
        conversation_id: m.conversation_id,
      },
    });
  }
  for (const [i, x] of faxes.rows.entries()) {
    merged.push({
      at: x.created_at,
      item: {
        id: `fax-${x.id}`,
        kind: 'fax',
        created_at: x.created_at.toISOString(),
        number: numberOf(x.number_id, x.direction === 'inbound' ? x.to : x.from),
        from: x.from,
        to: x.to,
        direction: x.direction,
        status_label: x.status,
        content: x.pages === null ? x.cover_note : `${x.pages} page${x.pages === 1 ? '' : 's'}${x.cover_note ? `: ${x.cover_note}` : ''}`,
        delivery_state: x.status,
        media: x.file_key ? [{ url: `/api/faxes/${x.id}/file`, contentType: 'application/pdf' }] : [],
        contact: contacts[calls.entries.length + messages.rows.length + i] ?? null,
        conversation_id: x.conversation_id,
      },
    });
  }
  const noteContactAt = calls.entries.length + messages.rows.length + faxes.rows.length;
  for (const [i, n] of notes.notes.entries()) {
    const call = noteCall(n);
    merged.push({
      at: new Date(n.created_at),
      item: {
        id: `note-${n.id}`,
        kind: 'note',
        created_at: n.created_at,
        number: call ? numberOf(call.number_id, call.direction === 'outbound' ? call.from_number : call.to_number) : { id: 0, number: '', label: '' },
        ...(n.model_type === 'call' ? { call_id: n.model_id } : {}),
        from: call?.from_number ?? '',
        to: call?.to_number ?? '',
        direction: call?.direction === 'outbound' ? 'outbound' : 'inbound',
        content: n.body,
        contact: call ? (contacts[noteContactAt + i] ?? null) : null,
        note: {
          id: n.id,
          model_type: n.model_type,
          model_id: n.model_id,
          user_id: n.user_id,
          user_name: n.user_id !== null ? (authors.get(n.user_id) ?? null) : null,
          updated_at: n.updated_at,
        },
      },
    });
  }
  for (const m of matches.items) {
    const r = matchCalls.get(m.callId);
    merged.push({
      at: m.at,
      item: {
        id: `trackingmatch-${m.callId}`,
        kind: 'trackingmatch',
        created_at: m.at.toISOString(),
        number: numberOf(r?.number_id ?? 0, m.number),
        call_id: m.callId,
        from: r?.from_number ?? '',
        to: m.number,
        direction: 'inbound',
        contact: null,
        tracking: {
          session_id: m.sessionId,
          pool_id: m.poolId,
          traffic_source: m.trafficSource,
          source: m.source,
          medium: m.medium,
          campaign: m.campaign,
          keyword: m.keyword,
          landing_page: m.landingPage,
        },
      },
    });
  }
  merged.sort((x, y) => y.at.getTime() - x.at.getTime() || y.item.id.localeCompare(x.item.id));
  const total = calls.total + messages.total + matches.total + faxes.total + notes.total;
  return {
    data: merged.slice((q.page - 1) * q.per_page, q.page * q.per_page).map((s) => s.item),
    meta: { ...pageMeta(q.page, q.per_page, total), show_progress: !(q.page === 1 && q.per_page === 10) },
  };
}

/** Call-only filters other than the session. */
function hasCallOnlyFilterBesidesSession(f: ActivityQuery['filter']): boolean {
  return hasCallOnlyFilter({ ...f, dniSessionId: undefined });
}

/** UTC bounds of the filter's dates (local days of `timeZone`, `to` inclusive), as the reporting store resolves them for calls. */
function datesRange(dates: NonNullable<ActivityQuery['filter']['dates']>, timeZone: string): { from: Date; to: Date } {
  const r = rangeOfDates(dates, timeZone, 'filter.dates');
  return { from: r.from, to: r.to };
}
