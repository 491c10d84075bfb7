/**
 * Notes (spec 001 "Note": model_type, model_id, body; "POST /notes", "PUT /notes/{id}",
 * "DELETE /notes/{id}"). Notes attach to a call (`model_type` 'call'); the note's company is the
 * call's company, and only its members see or change it (another company's → 404).
 */
import type { AppContext } from '../../context.js';
import { NotFoundError, deniedAsNotFound } from '../../platform/http/errors.js';
import { AGENT_ROLES, assertCompanyAccess } from '../companies/companies.service.js';
import { callCompanyForUser } from '../calls/calls.service.js';
import { notesRepository, type NoteRow } from './notes.repository.js';

export const NOTE_SAVED = 'Note saved successfully';
export const NOTE_DELETED = 'Note deleted successfully';

/** The API shape of a note. */
export function noteDto(n: NoteRow) {
  return { id: n.id, model_type: n.model_type, model_id: n.model_id, body: n.body, user_id: n.user_id, created_at: n.created_at.toISOString(), updated_at: n.updated_at.toISOString() };
}

async function noteForUser(ctx: AppContext, userId: number, id: number): Promise<NoteRow> {
  const n = await notesRepository.find(ctx.db, id);
  if (!n) throw new NotFoundError('Note');
  await deniedAsNotFound(assertCompanyAccess(ctx, userId, n.company_id, AGENT_ROLES), 'Note');
  return n;
}

/** POST /api/notes {model_type:'call', model_id, body}. @throws NotFoundError (unknown or another company's call). */
export async function createNote(ctx: AppContext, userId: number, input: { model_type: 'call'; model_id: number; body: string }) {
  const companyId = await callCompanyForUser(ctx, userId, input.model_id, AGENT_ROLES);
  const n = await notesRepository.insert(ctx.db, { company_id: companyId, model_type: input.model_type, model_id: input.model_id, user_id: userId, body: input.body });
  ctx.realtime.send(`company.${companyId}`, 'call updated', { id: input.model_id, note: true });
  return { message: NOTE_SAVED, data: noteDto(n) };
}

/** PUT /api/notes/{id} {body}. @throws NotFoundError */
export async function updateNote(ctx: AppContext, userId: number, id: number, body: string) {
  const n = await noteForUser(ctx, userId, id);
  return { message: NOTE_SAVED, data: noteDto(await notesRepository.update(ctx.db, n.id, body)) };
}

/** DELETE /api/notes/{id}. @throws NotFoundError */
export async function deleteNote(ctx: AppContext, userId: number, id: number) {
  const n = await noteForUser(ctx, userId, id);
  await notesRepository.delete(ctx.db, n.id);
  return { message: NOTE_DELETED };
}

/** For the calls module: a call's notes, oldest first (the caller checked access). */
export async function notesOf(ctx: AppContext, companyId: number, modelType: 'call', modelId: number) {
  return (await notesRepository.forModel(ctx.db, companyId, modelType, modelId)).map(noteDto);
}
