/**
 * Leads (docs/tracking.md "Leads"; not shown in spec 002, added): one person of a company, keyed
 * by phone number, with their calls, texts and website visits grouped (`attribution.ts` groups
 * them as calls and texts arrive).
 *
 * - `GET /api/companies/{companyId}/dni/leads?search=&page=&per_page=`: latest contact first,
 *   page-numbered (25, up to 100), each with its counts, first touch and last touch.
 * - `GET .../dni/leads/{leadId}`: the lead with its calls (attribution), texts and visits, each
 *   newest first (up to `DNI_LEAD_DETAIL_LIMIT`).
 * Any member whose role reads reports (`reports.read`); another company's lead answers 404.
 */
import { DNI_LEAD_DETAIL_LIMIT, type DniLead, type DniLeadBody, type DniLeadListQuery, type Touch, type TrafficSource } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { NotFoundError } from '../../platform/http/errors.js';
import { pageMeta, type PageMeta } from '../../platform/http/page.js';
import type { StoredTouch } from '../../platform/db/schema-tracking.js';
import { assertCompanyAccess } from '../companies/companies.service.js';
import { findContactByNumber } from '../contacts/contacts.service.js';
import { getCompanyNumbers } from '../numbers/numbers.service.js';
import { leadsRepository, type LeadSearch, type LeadSummaryRow } from './leads.repository.js';
import { toAttributionDto, toSessionDto } from './timeline.js';

function toTouch(t: StoredTouch | null): Touch | null {
  if (!t || !t.traffic_source) return null;
  return { traffic_source: t.traffic_source as TrafficSource, source: t.source, medium: t.medium, campaign: t.campaign, keyword: t.keyword };
}

/** The API shape of a lead summary; `contactName`: the company's contact with the lead's number (null: none). */
export function toLeadDto(l: LeadSummaryRow, contactName: string | null = null): DniLead {
  return {
    id: l.id,
    company_id: l.company_id,
    phone: l.phone,
    contact_name: contactName,
    first_seen_at: new Date(l.first_seen_at).toISOString(),
    last_seen_at: new Date(l.last_seen_at).toISOString(),
    calls: l.calls,
    texts: l.texts,
    sessions: l.sessions,
    first_touch: toTouch(l.first_touch),
    last_touch: toTouch(l.last_touch),
  };
}

/**
 * The display names of the company's contacts with these numbers (issue 23: leads showed bare numbers for known
 * people): full name, else first and last name; numbers without a named contact are absent. One batched query
 * (contacts' `findContactByNumber` groups concurrent lookups).
 */
async function contactNames(ctx: AppContext, companyId: number, phones: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(phones)];
  const found = await Promise.all(unique.map((p) => findContactByNumber(ctx, companyId, p)));
  const out = new Map<string, string>();
  unique.forEach((p, i) => {
    const c = found[i];
    const name = c ? c.name?.trim() || [c.first_name, c.last_name].filter(Boolean).join(' ').trim() : '';
    if (name) out.set(p, name);
  });
  return out;
}

/**
 * How a search text narrows the list: text made only of phone characters with a digit searches the
 * phone number by its digits; any other text the marketing facts of the lead's visits and calls.
 */
export function leadSearchOf(text: string | undefined): LeadSearch {
  const t = (text ?? '').trim();
  if (!t) return null;
  if (/^[\d\s()+.\-]+$/.test(t) && /\d/.test(t)) return { kind: 'phone', digits: t.replace(/\D/g, '') };
  return { kind: 'text', text: t };
}

/**
 * `GET .../dni/leads` (reports.read): the company's leads, latest contact first.
 * @throws ForbiddenError 403 without access to the company.
 */
export async function listLeads(ctx: AppContext, userId: number, companyId: number, q: DniLeadListQuery): Promise<{ data: DniLead[]; meta: PageMeta }> {
  await assertCompanyAccess(ctx, userId, companyId);
  const { rows, total } = await leadsRepository.listLeads(ctx.db, companyId, {
    search: leadSearchOf(q.search),
    limit: q.per_page,
    offset: (q.page - 1) * q.per_page,
  });
  const names = await contactNames(
    ctx,
    companyId,
    rows.map((r) => r.phone),
  );
  return { data: rows.map((r) => toLeadDto(r, names.get(r.phone) ?? null)), meta: pageMeta(q.page, q.per_page, total) };
}

/**
 * `GET .../dni/leads/{leadId}` (reports.read): the lead with its calls, texts and visits, newest first.
 * @throws ForbiddenError 403 without access to the company; NotFoundError 404 for an unknown lead or another company's.
 */
export async function getLead(ctx: AppContext, userId: number, companyId: number, leadId: number): Promise<DniLeadBody> {
  await assertCompanyAccess(ctx, userId, companyId);
  const lead = await leadsRepository.findLead(ctx.db, companyId, leadId);
  if (!lead) throw new NotFoundError('Lead');
  const [calls, texts, sessions] = await Promise.all([
    leadsRepository.callsOfLead(ctx.db, lead.id, DNI_LEAD_DETAIL_LIMIT),
    leadsRepository.textsOfLead(ctx.db, lead.id, DNI_LEAD_DETAIL_LIMIT),
    leadsRepository.sessionsOfLead(ctx.db, companyId, lead.id, DNI_LEAD_DETAIL_LIMIT),
  ]);
  const numberIds = [...new Set(texts.map((t) => t.number_id))];
  const numbers = new Map((await getCompanyNumbers(ctx, companyId, numberIds, { includeReleased: true })).map((n) => [n.id, n.number]));
  return {
    data: toLeadDto(lead, (await contactNames(ctx, companyId, [lead.phone])).get(lead.phone) ?? null),
    calls: calls.map((c) => ({ ...toAttributionDto(c), number: c.number, from: c.from_number, status: c.status, duration_s: c.duration_s })),
    texts: texts.map((t) => ({ at: t.at.toISOString(), from: t.from_number, number_id: t.number_id, number: numbers.get(t.number_id) ?? null })),
    sessions: sessions.map((s) => toSessionDto(s, s.pool_name)),
  };
}
