/** POST / DELETE /api/calls/{id}/tags/tags {tags: [names]}: adds or removes tags; answers the call's tags. */
import type { CallTagsBody, Infer } from '@switchboard/contracts';
import { http } from '../../../lib/http';

export function addCallTags(id: number, tags: string[]): Promise<Infer<typeof CallTagsBody>> {
  return http.post<Infer<typeof CallTagsBody>>(`/api/calls/${id}/tags/tags`, { tags }, { silent: true });
}

export function removeCallTags(id: number, tags: string[]): Promise<Infer<typeof CallTagsBody>> {
  return http.delete<Infer<typeof CallTagsBody>>(`/api/calls/${id}/tags/tags`, { tags }, { silent: true });
}
