/** The call detail (GET /api/calls/{id}; spec 001 "Call (analysis view)"), inferred from packages/contracts. */
import type { CallDetail, CallEventSchema, CallForward, Infer, NoteSchema, TagSchema } from '@switchboard/contracts';

export type { CallDetail, CallForward };

/** One step of the call's history: the status at the time, and what the step was in words. */
export type CallEvent = Infer<typeof CallEventSchema>;
export type Tag = Infer<typeof TagSchema>;
export type Note = Infer<typeof NoteSchema>;
