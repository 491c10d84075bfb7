/**
 * Choices of the report filters: the company's numbers (GET /api/companies/{id}/numbers), the
 * companies the person belongs to (GET /api/companies), and the tags, people who answered, tracking
 * pools, traffic sources and caller locations seen in the company's calls of the last 90 days (the
 * grouped report by tag, answered_by, dniPool, trafficSource and geo — there is no separate list call
 * for them), and the company's Call custom fields (GET /api/eavAttributes: whether it records outcomes and
 * departments). Loaded only while the filter panel is open; kept 5 minutes.
 */
import { useQueries, useQuery } from '@tanstack/react-query';
import { EAV_ENTITY_TYPES, formatPhone } from '@switchboard/domain';
import { TRAFFIC_SOURCES, type CallReportGroup, type CompanyList, type EavAttributeList, type Infer, type NumberSchema } from '@switchboard/contracts';
import { CACHE_MS } from '@switchboard/domain';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import { addDays } from '../ranges';
import { analyticsKey, getCallReport } from './get-call-report';

export interface Option {
  value: string;
  label: string;
}

const OPTIONS_STALE_MS = 300_000;
const SEEN_GROUPS = ['tag_day', 'answered_by_day', 'dni_pool_day', 'traffic_source_day', 'geo'] as const satisfies readonly CallReportGroup[];

export interface FilterOptions {
  numbers: Option[];
  companies: Option[];
  businessUnits: Option[];
  tags: Option[];
  answeredBy: Option[];
  pools: Option[];
  trafficSources: string[];
  geo: string[];
  /**
   * Whether the company records call outcomes / departments: a Call custom field named like "outcome" /
   * "department" (what the analytics facts read, analytics.facts.ts `enumField`). The filters show only then, so a
   * plumber is not offered a car dealer's "Vehicle ordered" or "Body shop" (issue 23).
   */
  usesOutcomes: boolean;
  usesDepartments: boolean;
  loading: boolean;
}

function distinct(options: Option[]): Option[] {
  const seen = new Map<string, Option>();
  for (const o of options) if (!seen.has(o.value)) seen.set(o.value, o);
  return [...seen.values()].sort((a, b) => a.label.localeCompare(b.label));
}

/** The choices of every filter; `today` is the company's current day, `timezone` its zone. */
export function useFilterOptions(enabled: boolean, today: string, timezone: string): FilterOptions {
  const companyId = useCompanyId();
  const numbers = useQuery({
    queryKey: companyKey(companyId, 'numbers'),
    queryFn: () => http.get<{ data: Array<Infer<typeof NumberSchema>> }>(`/api/companies/${companyId}/numbers`),
    enabled: enabled && companyId !== null,
    staleTime: CACHE_MS.company,
  });
  const companies = useQuery({ queryKey: ['companies'], queryFn: () => http.get<CompanyList>('/api/companies'), staleTime: CACHE_MS.company, enabled });
  const dates = { from: addDays(today, -89), to: today };
  const seen = useQueries({
    queries: SEEN_GROUPS.map((group) => ({
      queryKey: [...analyticsKey(companyId), 'options', group, dates, timezone],
      queryFn: () => getCallReport(companyId!, { group, target: 'calls', filters: { dates, timezone } }),
      enabled: enabled && companyId !== null,
      staleTime: OPTIONS_STALE_MS,
    })),
  });
  // Call custom fields (EAV_ENTITY_TYPES.Call): the same key as the custom-fields screens' query.
  const callFields = useQuery({
    queryKey: [...companyKey(companyId, 'eav-attributes'), EAV_ENTITY_TYPES.Call],
    queryFn: () => http.get<Infer<typeof EavAttributeList>>('/api/eavAttributes', { params: { company_id: companyId, entity_type: EAV_ENTITY_TYPES.Call } }),
    enabled: enabled && companyId !== null,
    staleTime: CACHE_MS.default,
  });
  const fieldNames = (callFields.data?.data ?? []).map((a) => a.name);
  const rows = (i: number) => seen[i]?.data?.data.rows ?? [];
  const companyList = companies.data?.data ?? [];
  return {
    numbers: (numbers.data?.data ?? []).map((n) => ({ value: String(n.id), label: n.label ? `${formatPhone(n.number)} · ${n.label}` : formatPhone(n.number) })),
    companies: companyList.map((c) => ({ value: String(c.id), label: c.name })),
    businessUnits: distinct(
      companyList.filter((c) => c.organization_id !== null).map((c) => ({ value: String(c.organization_id), label: `Business unit ${c.organization_id}` })),
    ),
    tags: distinct(rows(0).flatMap((r) => (r.tagId ? [{ value: String(r.tagId), label: r.tagName ?? `Tag ${r.tagId}` }] : []))),
    answeredBy: distinct(rows(1).flatMap((r) => (r.answeredBy ? [{ value: String(r.answeredBy), label: r.answeredByName || `User ${r.answeredBy}` }] : []))),
    pools: distinct(rows(2).flatMap((r) => (r.dniPoolId ? [{ value: String(r.dniPoolId), label: r.dniPoolName || `Pool ${r.dniPoolId}` }] : []))),
    trafficSources: [
      ...new Set(
        rows(3)
          .map((r) => r.trafficSource ?? '')
          .filter(Boolean),
      ),
    ].sort(),
    geo: [
      ...new Set(
        rows(4)
          .map((r) => r.geo ?? '')
          .filter(Boolean),
      ),
    ].sort(),
    usesOutcomes: fieldNames.some((n) => /outcome/i.test(n)),
    usesDepartments: fieldNames.some((n) => /department/i.test(n)),
    loading: numbers.isPending || seen.some((q) => q.isPending),
  };
}
