/**
 * What a pool's routing target may name (docs/tracking.md "Routing target"): the company's number
 * templates, read from `GET /api/companies/{companyId}/numberTemplates` (the number templates' own API;
 * only their ids and names are used here, so the tracking feature needs nothing of that feature).
 */
import { useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import type { Infer, NumberTemplateListBody } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import { trackingKey } from './keys';

/** A number template as a routing target: id and name. */
export interface TemplateOption {
  id: number;
  name: string;
}

/** The company's number templates (id and name), for the pool editor's "Use a number template". */
export function useTemplateOptions() {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: trackingKey(companyId, 'routing-templates'),
    queryFn: async (): Promise<TemplateOption[]> =>
      (await http.get<Infer<typeof NumberTemplateListBody>>(`/api/companies/${companyId}/numberTemplates`)).data.map((t) => ({ id: t.id, name: t.name })),
    enabled: companyId !== null,
    staleTime: CACHE_MS.counts,
  });
}
