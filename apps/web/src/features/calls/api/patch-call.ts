/** PATCH /api/calls/{id} {qualification: 1|2|3|null, eavAttributeValues?}: answers the call detail. */
import { request } from '../../../lib/http';
import type { CallDetail } from '../types';

export async function patchCall(id: number, input: { qualification?: CallDetail['qualification']; eavAttributeValues?: Record<string, unknown> }): Promise<CallDetail> {
  return (await request<CallDetail>(`/api/calls/${id}`, { method: 'PATCH', data: input, silent: true })).data;
}
