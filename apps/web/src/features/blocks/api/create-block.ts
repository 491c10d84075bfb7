/** POST /api/blocks {company_id, target, number_id, global, action}: answers {message: "{target} has been blocked", data}. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BlockCreatedBody, CreateBlockInput as CreateBlockSchema, Infer } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';

/** POST /api/blocks body (the contract's `CreateBlockInput`, as the server reads it). */
export type CreateBlockInput = Infer<typeof CreateBlockSchema>;

export function createBlock(input: CreateBlockInput): Promise<Infer<typeof BlockCreatedBody>> {
  return http.post<Infer<typeof BlockCreatedBody>>('/api/blocks', input);
}

export function useCreateBlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBlock,
    onSuccess: (_r, input) => queryClient.invalidateQueries({ queryKey: companyKey(input.company_id, 'blocks') }),
  });
}
