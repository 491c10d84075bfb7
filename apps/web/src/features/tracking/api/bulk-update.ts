/**
 * Bulk attribute update (spec 002 "DNI"): `GET /api/bulkAttributeUpdate/companies/{companyId}` (or
 * `/businessUnits/{id}`) downloads the CSV template; `POST` the same path with a multipart `file` applies it.
 * 200: every row applied; 422: nothing applied and `row_errors` names each bad row by its number (row 1 = the
 * first data line). A business unit's file covers every company of the unit the person manages (owner or
 * administrator) and needs `company_id` on each row.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BULK_ATTRIBUTE_COLUMNS, type BulkAttributeUpdateResult, type CompanyList, type Infer } from '@switchboard/contracts';
import { CACHE_MS, roleCan } from '@switchboard/domain';
import { http, HttpError } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import { trackingKey } from './keys';

export type BulkResult = Infer<typeof BulkAttributeUpdateResult>;

export { BULK_ATTRIBUTE_COLUMNS };

/** Where a file applies: the current company, or a business unit's companies. */
export type BulkScope = { kind: 'company'; companyId: number } | { kind: 'businessUnit'; id: number };

/** The endpoint of a scope (template GET, upload POST). */
export function bulkPath(scope: BulkScope): string {
  return scope.kind === 'company' ? `/api/bulkAttributeUpdate/companies/${scope.companyId}` : `/api/bulkAttributeUpdate/businessUnits/${scope.id}`;
}

/** The template's file name for a scope. */
export function templateName(scope: BulkScope): string {
  return scope.kind === 'company' ? 'tracking-attributes.csv' : `tracking-attributes-business-unit-${scope.id}.csv`;
}

/** The template of the scope (a CSV Blob with the current static sources). */
export function downloadTemplate(scope: BulkScope): Promise<Blob> {
  return http.get<Blob>(bulkPath(scope), { responseType: 'blob', params: undefined });
}

/** A business unit the person can update in bulk: its id and the companies of it they manage. */
export interface ManagedUnit {
  id: number;
  companies: Array<{ id: number; name: string }>;
}

/**
 * The business units of the person's companies where they manage (owner or administrator, as the server's
 * business-unit upload requires) at least one company, with those companies; from `GET /api/companies`.
 */
export function managedUnits(companies: CompanyList['data']): ManagedUnit[] {
  const units = new Map<number, ManagedUnit>();
  for (const c of companies) {
    if (c.organization_id === null || !roleCan(c.role, 'numbers.manage') || !roleCan(c.role, 'tracking.manage')) continue;
    const unit = units.get(c.organization_id) ?? { id: c.organization_id, companies: [] };
    unit.companies.push({ id: c.id, name: c.name });
    units.set(c.organization_id, unit);
  }
  return [...units.values()].sort((a, b) => a.id - b.id);
}

/** The business units the person can update in bulk (see {@link managedUnits}). */
export function useManagedUnits() {
  return useQuery({
    queryKey: ['companies'],
    queryFn: () => http.get<CompanyList>('/api/companies'),
    staleTime: CACHE_MS.company,
    select: (r) => managedUnits(r.data),
  });
}

/** The outcome of an upload: applied (200) or refused with row errors (422, nothing applied). */
export type UploadOutcome = { applied: true; result: BulkResult } | { applied: false; result: BulkResult };

/**
 * Uploads a CSV for a scope. A 422 with `row_errors` is an outcome to show, not a failure; any other error throws.
 */
export function useBulkUpload() {
  const companyId = useCompanyId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ file, scope }: { file: File; scope: BulkScope }): Promise<UploadOutcome> => {
      const form = new FormData();
      form.append('file', file);
      try {
        const result = await http.post<BulkResult>(bulkPath(scope), form, { silent: true });
        return { applied: true, result };
      } catch (error) {
        if (error instanceof HttpError && error.status === 422 && Array.isArray((error.body as Partial<BulkResult>)?.row_errors)) {
          return { applied: false, result: error.body as BulkResult };
        }
        throw error;
      }
    },
    onSuccess: (outcome) => {
      if (outcome.applied) void queryClient.invalidateQueries({ queryKey: trackingKey(companyId) });
    },
  });
}
