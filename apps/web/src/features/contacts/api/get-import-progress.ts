/** GET /api/companies/{companyId}/contacts/progress/{batchId}: the import's batch progress (fallback to the live events). */
import { http } from '../../../lib/http';
import type { BatchProgress } from '../types';

export function getImportProgress(companyId: number, batchId: string): Promise<BatchProgress> {
  return http.get<BatchProgress>(`/api/companies/${companyId}/contacts/progress/${batchId}`);
}
