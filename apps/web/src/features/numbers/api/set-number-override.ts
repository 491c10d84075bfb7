/** PUT /api/numbers/{id}/override {mode: auto|open|closed, until?}: manual open/closed override. */
import { useMutation } from '@tanstack/react-query';
import type { Infer, NumberOverrideInput } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import type { NumberOverride } from '../types';

/** The number's id and the contract's `NumberOverrideInput`: `until` an ISO-8601 instant with offset, or null for no end. */
export type OverrideInput = { id: number } & Infer<typeof NumberOverrideInput>;

export function setNumberOverride({ id, mode, until }: OverrideInput): Promise<{ message: string; data: NumberOverride }> {
  return http.put<{ message: string; data: NumberOverride }>(`/api/numbers/${id}/override`, { mode, until: mode === 'auto' ? null : until });
}

export function useSetNumberOverride() {
  return useMutation({ mutationFn: setNumberOverride });
}
