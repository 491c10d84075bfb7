/** POST /api/numbers {company_id, provider_id, number}: buys a number for the company; answers 201 with the Number. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BuyNumberInput as BuyNumberSchema, Infer } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import type { PhoneNumber } from '../types';
import { numbersQueryOptions } from './get-numbers';
import { numbersDatatableKey } from './get-numbers-datatable';
import { numberSearchQueryOptions } from './search-numbers';

/** The contract's `BuyNumberInput` with the number to buy (the form the search page uses). */
export type BuyNumberInput = Infer<typeof BuyNumberSchema> & { number: string };

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
