/** PUT /api/v1/numbers {ids, label?, routes?, schedule?}: updates numbers in a background batch (202). */
import { useMutation } from '@tanstack/react-query';
import type { RouteEntry, Schedule } from '@switchboard/domain';
import { http } from '../../../lib/http';
import type { BatchStarted } from '../types';

export interface BulkUpdateInput {
  ids: number[];
  label?: string;
  routes?: RouteEntry[];
  schedule?: Schedule;
}

export function bulkUpdateNumbers(input: BulkUpdateInput): Promise<BatchStarted> {
  return http.put<BatchStarted>('/api/v1/numbers', input);
}

export function useBulkUpdateNumbers() {
  return useMutation({ mutationFn: bulkUpdateNumbers });
}
