/** POST /api/numbers {company_id, provider_id, number}: buys a number for the company; answers 201 with the Number. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import type { PhoneNumber } from '../types';
import { numbersQueryOptions } from './get-numbers';
import { numbersDatatableKey } from './get-numbers-datatable';
import { numberSearchQueryOptions } from './search-numbers';

export interface BuyNumberInput {
  company_id: number;
  provider_id: string | number;
  number: string;
}

export function buyNumber(input: BuyNumberInput): Promise<PhoneNumber> {
  return http.post<PhoneNumber>('/api/numbers', input);
}

export function useBuyNumber() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: buyNumber,
    onSuccess: async (_data, input) => {
      // The bought number leaves the inventory: forget every cached search.
      queryClient.removeQueries({ queryKey: numberSearchQueryOptions(null).queryKey.slice(0, 1) });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: numbersQueryOptions(input.company_id).queryKey }),
        queryClient.invalidateQueries({ queryKey: numbersDatatableKey(input.company_id) }),
      ]);
    },
  });
}
