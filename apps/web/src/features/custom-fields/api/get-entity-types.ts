/** GET /api/eavEntityTypes: the entity types custom fields attach to (Number 1 … Contact 7). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { EavEntityTypeList, Infer } from '@switchboard/contracts';
import { http } from '../../../lib/http';

export function getEntityTypes(): Promise<Infer<typeof EavEntityTypeList>> {
  return http.get('/api/eavEntityTypes');
}

export function entityTypesQueryOptions() {
  return queryOptions({ queryKey: ['eav-entity-types'], queryFn: getEntityTypes, staleTime: Infinity });
}

export function useEntityTypes() {
  return useQuery(entityTypesQueryOptions());
}
