/**
 * GET /api/companies/{companyId}/numbers/datatable?page&perPage&sort&dir&search&type&label: one page
 * of the company's numbers with `meta {current_page, per_page, total, last_page}` (docs/numbers.md).
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import type { NumberDetail, NumberTableQuery, PageMeta } from '../types';

export interface NumbersPage {
  data: NumberDetail[];
  meta: PageMeta;
}

export function getNumbersDatatable(companyId: number, query: NumberTableQuery): Promise<NumbersPage> {
  return http.get<NumbersPage>(`/api/companies/${companyId}/numbers/datatable`, {
    params: { ...query, search: query.search || undefined, label: query.label || undefined },
  });
}

/** Key root of every datatable page (invalidate this after a change). */
export function numbersDatatableKey(companyId: number | null): unknown[] {
  return companyKey(companyId, 'numbers-datatable');
}

export function numbersDatatableQueryOptions(companyId: number | null, query: NumberTableQuery) {
  return queryOptions({
    queryKey: [...numbersDatatableKey(companyId), query],
    queryFn: () => getNumbersDatatable(companyId!, query),
    enabled: companyId !== null,
    staleTime: CACHE_MS.company,
    placeholderData: keepPreviousData,
  });
}

export function useNumbersDatatable(query: NumberTableQuery) {
  return useQuery(numbersDatatableQueryOptions(useCompanyId(), query));
}
