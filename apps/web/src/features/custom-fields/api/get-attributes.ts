/** GET /api/eavAttributes?company_id&entity_type: the company's custom fields of one entity type (its own and its business unit's). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import type { EavAttributeList, Infer } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';

export function getAttributes(companyId: number, entityType: number): Promise<Infer<typeof EavAttributeList>> {
  return http.get<Infer<typeof EavAttributeList>>('/api/eavAttributes', { params: { company_id: companyId, entity_type: entityType } });
}

export function attributesKey(companyId: number | null) {
  return companyKey(companyId, 'eav-attributes');
}

export function attributesQueryOptions(companyId: number | null, entityType: number) {
  return queryOptions({
    queryKey: [...attributesKey(companyId), entityType],
    queryFn: () => getAttributes(companyId!, entityType),
    enabled: companyId !== null,
    staleTime: CACHE_MS.default,
  });
}

/** Custom fields of `entityType` for the selected company. */
export function useAttributes(entityType: number) {
  return useQuery(attributesQueryOptions(useCompanyId(), entityType));
}
