/** POST /api/numbers/{id}/rotate: swaps in another number of the same area code; routing stays. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Infer, RotateBody } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import type { NumberDetail } from '../types';

/** The contract's `RotateBody`, with the number's routing as the domain types (NumberDetail). */
export type RotateResult = Omit<Infer<typeof RotateBody>, 'data'> & { data: NumberDetail };

export function rotateNumber(id: number): Promise<RotateResult> {
  return http.post<RotateResult>(`/api/numbers/${id}/rotate`);
}

export function useRotateNumber(companyId: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rotateNumber,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companyKey(companyId) }),
  });
}
