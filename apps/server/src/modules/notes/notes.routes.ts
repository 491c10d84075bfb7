/** Notes HTTP routes (spec 001): POST /api/notes, PUT /api/notes/{id}, DELETE /api/notes/{id}. */
import { CreateNoteInput, IdParams, MessageBody, NoteSavedBody, UpdateNoteInput, errorResponses } from '@switchboard/contracts';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import { createNote, deleteNote, updateNote } from './notes.service.js';

/** Registers the notes routes (HTTP only; the service checks access). */
export function registerNotesRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/api/notes',
    {
      config: { access: access.company('calls.work') },
      schema: { tags: ['notes'], body: CreateNoteInput, response: { 201: NoteSavedBody, ...errorResponses } },
    },
    async (req, reply) => reply.status(201).send(await createNote(ctx, req.auth!.userId, req.body)),
  );

  app.put(
    '/api/notes/:id',
    {
      config: { access: access.company('calls.work') },
      schema: { tags: ['notes'], params: IdParams, body: UpdateNoteInput, response: { 200: NoteSavedBody, ...errorResponses } },
    },
    async (req) => updateNote(ctx, req.auth!.userId, req.params.id, req.body.body),
  );

  app.delete(
    '/api/notes/:id',
    { config: { access: access.company('calls.work') }, schema: { tags: ['notes'], params: IdParams, response: { 200: MessageBody, ...errorResponses } } },
    async (req) => deleteNote(ctx, req.auth!.userId, req.params.id),
  );
}
