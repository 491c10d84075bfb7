/**
 * POST /api/numbers/bulk {company_id, numbers: [{number, provider_id}]}: buys several numbers in a
 * background batch; answers 202 {message, batchId, data}. Progress arrives on
 * `bulk-purchase.{companyId}` ('bulk purchase progress' / 'bulk purchase finished').
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BulkPurchaseInput as BulkPurchaseSchema, Infer } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import type { BatchStarted } from '../types';
import { numberSearchQueryOptions } from './search-numbers';

export type BulkPurchaseInput = Infer<typeof BulkPurchaseSchema>;

export function bulkPurchaseNumbers(input: BulkPurchaseInput): Promise<BatchStarted> {
  return http.post<BatchStarted>('/api/numbers/bulk', input);
}

export function useBulkPurchaseNumbers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkPurchaseNumbers,
    // The numbers leave the inventory: forget every cached search.
    onSuccess: () => queryClient.removeQueries({ queryKey: numberSearchQueryOptions(null).queryKey.slice(0, 1) }),
  });
}
