/** POST /api/notes {model_type: 'call', model_id, body}; PUT /api/notes/{id} {body}; DELETE /api/notes/{id}. */
import type { Infer, MessageBody, NoteSavedBody } from '@switchboard/contracts';
import { http } from '../../../lib/http';

export function createCallNote(callId: number, body: string): Promise<Infer<typeof NoteSavedBody>> {
  return http.post<Infer<typeof NoteSavedBody>>('/api/notes', { model_type: 'call', model_id: callId, body }, { silent: true });
}

export function updateNote(id: number, body: string): Promise<Infer<typeof NoteSavedBody>> {
  return http.put<Infer<typeof NoteSavedBody>>(`/api/notes/${id}`, { body }, { silent: true });
}

export function deleteNote(id: number): Promise<Infer<typeof MessageBody>> {
  return http.delete<Infer<typeof MessageBody>>(`/api/notes/${id}`, undefined, { silent: true });
}
