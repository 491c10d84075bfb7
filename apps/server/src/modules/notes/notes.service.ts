/**
 * Notes (spec 001 "Note": model_type, model_id, body; "POST /notes", "PUT /notes/{id}",
 * "DELETE /notes/{id}"). Notes attach to a subject (`model_type` 'call'); the note's company is the
 * subject's company, and only its members see or change it (another company's → 404).
 *
 * Notes sit below the modules whose records they annotate (docs/architecture.md "Module map"), so
 * the owner of each subject type registers how to find a subject's company for a user
 * (the `noteSubject` hook keyed by model type, `ctx.hooks.provide` in its module setup): the calls module for 'call'.
 */
import type { AppContext } from '../../context.js';
import type { HookFn } from '../../platform/hooks/registry.js';
import { NotFoundError, deniedAsNotFound } from '../../platform/http/errors.js';
import { AGENT_ROLES, assertCompanyAccess } from '../companies/companies.service.js';
import { notesRepository, type NoteRow } from './notes.repository.js';

/** The subject types a note may attach to. */
export type NoteModelType = 'call';

/**
 * How a subject type's owner resolves a subject for a user about to attach a note: the subject's
 * company (after checking the user may write notes on it, agent roles) and what to announce after
 * the note is saved. @throws NotFoundError for an unknown subject or another company's.
 */
export type NoteSubjectResolver = HookFn<'noteSubject'>;

export const NOTE_SAVED = 'Note saved successfully';
export const NOTE_DELETED = 'Note deleted successfully';

/** The API shape of a note. */
export function noteDto(n: NoteRow) {
  return {
    id: n.id,
    model_type: n.model_type,
    model_id: n.model_id,
    body: n.body,
    user_id: n.user_id,
    created_at: n.created_at.toISOString(),
    updated_at: n.updated_at.toISOString(),
  };
}

async function noteForUser(ctx: AppContext, userId: number, id: number): Promise<NoteRow> {
  const n = await notesRepository.find(ctx.db, id);
  if (!n) throw new NotFoundError('Note');
  await deniedAsNotFound(assertCompanyAccess(ctx, userId, n.company_id, AGENT_ROLES), 'Note');
  return n;
}

/** POST /api/notes {model_type:'call', model_id, body}. @throws NotFoundError (unknown or another company's subject). */
export async function createNote(ctx: AppContext, userId: number, input: { model_type: NoteModelType; model_id: number; body: string }) {
  const resolve = ctx.hooks.of('noteSubject', input.model_type);
  if (!resolve) throw new Error(`notes: nothing provides the 'noteSubject' hook for '${input.model_type}'`);
  const subject = await resolve(ctx, userId, input.model_id);
  const n = await notesRepository.insert(ctx.db, {
    company_id: subject.companyId,
    model_type: input.model_type,
    model_id: input.model_id,
    user_id: userId,
    body: input.body,
  });
  subject.onSaved?.();
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

/** For the subject's owner (the calls module): a subject's notes, oldest first (the caller checked access). */
export async function notesOf(ctx: AppContext, companyId: number, modelType: NoteModelType, modelId: number) {
  return (await notesRepository.forModel(ctx.db, companyId, modelType, modelId)).map(noteDto);
}

/**
 * For the activity feed (spec 001 §3 "Activity item kinds": note; §7 "GET /activity" `notes` flag): the company's
 * newest `limit` notes created in [from, to) (UTC instants, either optional), newest first, with their total. The
 * caller checked access to the company.
 */
export async function companyNotesActivity(ctx: AppContext, companyId: number, range: { from?: Date; to?: Date; limit: number }) {
  const r = await notesRepository.newestOfCompany(ctx.db, companyId, range);
  return { notes: r.rows.map(noteDto), total: r.total };
}
