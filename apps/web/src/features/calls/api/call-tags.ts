/** POST / DELETE /api/calls/{id}/tags/tags {tags: [names]}: adds or removes tags; answers the call's tags. */
import { http } from '../../../lib/http';
import type { Tag } from '../types';

export function addCallTags(id: number, tags: string[]): Promise<{ data: Tag[] }> {
  return http.post<{ data: Tag[] }>(`/api/calls/${id}/tags/tags`, { tags }, { silent: true });
}

export function removeCallTags(id: number, tags: string[]): Promise<{ data: Tag[] }> {
  return http.delete<{ data: Tag[] }>(`/api/calls/${id}/tags/tags`, { tags }, { silent: true });
}
