/** POST /api/blocks {company_id, target, number_id, global, action}: answers {message: "{target} has been blocked", data}. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import type { Block } from '../types';

export interface CreateBlockInput {
  company_id: number;
  target: string;
  number_id: number | null;
  global: boolean;
  action: string;
}

export function createBlock(input: CreateBlockInput): Promise<{ message: string; data: Block }> {
  return http.post<{ message: string; data: Block }>('/api/blocks', input);
}

export function useCreateBlock() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createBlock, onSuccess: (_r, input) => queryClient.invalidateQueries({ queryKey: companyKey(input.company_id, 'blocks') }) });
}
