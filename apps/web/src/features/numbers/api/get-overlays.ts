/** GET /api/numbers/overlay/{areaCode}: the other area codes of the same overlay region. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import type { Infer, OverlayBody } from '@switchboard/contracts';
import { http } from '../../../lib/http';

export function getOverlays(areaCode: string): Promise<Infer<typeof OverlayBody>> {
  return http.get<Infer<typeof OverlayBody>>(`/api/numbers/overlay/${areaCode}`, { silent: true });
}

export function overlaysQueryOptions(areaCode: string | null) {
  return queryOptions({
    queryKey: ['number-overlay', areaCode],
    queryFn: () => getOverlays(areaCode!),
    enabled: areaCode !== null && /^\d{3}$/.test(areaCode),
    staleTime: CACHE_MS.company,
  });
}

export function useOverlays(areaCode: string | null) {
  return useQuery(overlaysQueryOptions(areaCode));
}
