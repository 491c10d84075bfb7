/** PUT /api/numbers/{id}/override {mode: auto|open|closed, until?}: manual open/closed override. */
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import type { NumberOverride } from '../types';

export interface OverrideInput {
  id: number;
  mode: NumberOverride['mode'];
  /** ISO-8601 instant with offset, or null for no end. */
  until: string | null;
}

export function setNumberOverride({ id, mode, until }: OverrideInput): Promise<{ message: string; data: NumberOverride }> {
  return http.put<{ message: string; data: NumberOverride }>(`/api/numbers/${id}/override`, { mode, until: mode === 'auto' ? null : until });
}

export function useSetNumberOverride() {
  return useMutation({ mutationFn: setNumberOverride });
}
