/** GET /api/numberPrefixes: the toll-free prefixes to search ({value, label}; `8**` = any). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import type { Infer, NumberPrefixesBody } from '@switchboard/contracts';
import { http } from '../../../lib/http';

export function getNumberPrefixes(): Promise<Infer<typeof NumberPrefixesBody>> {
  return http.get<Infer<typeof NumberPrefixesBody>>('/api/numberPrefixes');
}

export function numberPrefixesQueryOptions() {
  return queryOptions({ queryKey: ['number-prefixes'], queryFn: getNumberPrefixes, staleTime: CACHE_MS.company });
}

export function useNumberPrefixes() {
  return useQuery(numberPrefixesQueryOptions());
}
