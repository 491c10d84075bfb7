/** PATCH /api/calls/{id} {qualification: 1|2|3|null, eavAttributeValues?: [{attribute_id, value}]}: answers the call detail (422 with field errors `eavAttributeValues.{i}.value`). */
import { request } from '../../../lib/http';
import type { CallDetail } from '../types';

export async function patchCall(
  id: number,
  input: { qualification?: CallDetail['qualification']; eavAttributeValues?: Array<{ attribute_id: number; value: unknown }> },
): Promise<CallDetail> {
  return (await request<CallDetail>(`/api/calls/${id}`, { method: 'PATCH', data: input, silent: true })).data;
}
