/** PUT /api/v1/numbers {ids, label?, routes?, schedule?}: updates numbers in a background batch (202). */
import { useMutation } from '@tanstack/react-query';
import type { RouteEntry, Schedule } from '@switchboard/domain';
import type { BulkUpdateInput as BulkUpdateSchema, Infer } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import type { BatchStarted } from '../types';

/** The contract's `BulkUpdateInput`, with the routing editor's domain `RouteEntry`/`Schedule` (their wire form is the contract's). */
export type BulkUpdateInput = Omit<Infer<typeof BulkUpdateSchema>, 'routes' | 'schedule'> & { routes?: RouteEntry[]; schedule?: Schedule };

export function bulkUpdateNumbers(input: BulkUpdateInput): Promise<BatchStarted> {
  return http.put<BatchStarted>('/api/v1/numbers', input);
}

export function useBulkUpdateNumbers() {
  return useMutation({ mutationFn: bulkUpdateNumbers });
}
