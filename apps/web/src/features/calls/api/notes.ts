/** POST /api/notes {model_type: 'call', model_id, body}; PUT /api/notes/{id} {body}; DELETE /api/notes/{id}. */
import { http } from '../../../lib/http';
import type { Note } from '../types';

export function createCallNote(callId: number, body: string): Promise<{ data: Note }> {
  return http.post<{ data: Note }>('/api/notes', { model_type: 'call', model_id: callId, body }, { silent: true });
}

export function updateNote(id: number, body: string): Promise<{ data: Note }> {
  return http.put<{ data: Note }>(`/api/notes/${id}`, { body }, { silent: true });
}

export function deleteNote(id: number): Promise<{ message: string }> {
  return http.delete<{ message: string }>(`/api/notes/${id}`, undefined, { silent: true });
}
