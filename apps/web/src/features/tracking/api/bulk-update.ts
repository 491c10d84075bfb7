/**
 * Bulk attribute update (spec 002 "DNI"): `GET /api/bulkAttributeUpdate/companies/{companyId}` downloads the
 * CSV template; `POST` the same path with a multipart `file` applies it. 200: every row applied; 422:
 * nothing applied and `row_errors` names each bad row by its number (row 1 = the first data line).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { BULK_ATTRIBUTE_COLUMNS, type BulkAttributeUpdateResult, type Infer } from '@switchboard/contracts';
import { http, HttpError } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import { trackingKey } from './keys';

export type BulkResult = Infer<typeof BulkAttributeUpdateResult>;

export { BULK_ATTRIBUTE_COLUMNS };

/** The template of the company (a CSV Blob with the current static sources). */
export function downloadTemplate(companyId: number): Promise<Blob> {
  return http.get<Blob>(`/api/bulkAttributeUpdate/companies/${companyId}`, { responseType: 'blob', params: undefined });
}

/** The outcome of an upload: applied (200) or refused with row errors (422, nothing applied). */
export type UploadOutcome = { applied: true; result: BulkResult } | { applied: false; result: BulkResult };

/**
 * Uploads a CSV. A 422 with `row_errors` is an outcome to show, not a failure; any other error throws.
 */
export function useBulkUpload() {
  const companyId = useCompanyId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (file: File): Promise<UploadOutcome> => {
      const form = new FormData();
      form.append('file', file);
      try {
        const result = await http.post<BulkResult>(`/api/bulkAttributeUpdate/companies/${companyId}`, form, { silent: true });
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
