/**
 * GET /api/blocks/{companyId}?page&per_page=50: the blocked callers. Spec 001 §7: page size 50 and
 * all pages are fetched, so the fetcher walks every page and answers one list.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import type { Block } from '../types';

/** Blocked list page size (spec 001 §7). */
export const BLOCKS_PER_PAGE = 50;

export async function getBlocks(companyId: number): Promise<Block[]> {
  const all: Block[] = [];
  for (let page = 1; ; page++) {
    const result = await http.get<{ data: Block[]; meta: { last_page: number } }>(`/api/blocks/${companyId}`, { params: { page, per_page: BLOCKS_PER_PAGE } });
    all.push(...result.data);
    if (page >= result.meta.last_page) return all;
  }
}

export function blocksQueryOptions(companyId: number | null) {
  return queryOptions({
    queryKey: companyKey(companyId, 'blocks'),
    queryFn: () => getBlocks(companyId!),
    enabled: companyId !== null,
    staleTime: CACHE_MS.company,
  });
}

export function useBlocks() {
  return useQuery(blocksQueryOptions(useCompanyId()));
}
