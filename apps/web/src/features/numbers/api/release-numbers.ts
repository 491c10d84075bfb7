/**
 * POST /api/numbers/{id}/remove (one) or POST /api/numbers/remove-bulk {ids}: releases numbers in a
 * background batch; answers 202 {message, batchId, data}. Progress arrives on `company.{companyId}`.
 */
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import type { BatchStarted } from '../types';

export function releaseNumbers(ids: number[]): Promise<BatchStarted> {
  if (ids.length === 1) return http.post<BatchStarted>(`/api/numbers/${ids[0]}/remove`);
  return http.post<BatchStarted>('/api/numbers/remove-bulk', { ids });
}

export function useReleaseNumbers() {
  return useMutation({ mutationFn: releaseNumbers });
}
