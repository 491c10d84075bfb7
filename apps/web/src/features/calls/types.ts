/** The call detail (GET /api/calls/{id}; spec 001 "Call (analysis view)", issue 3). */
import type { CallForward } from '@switchboard/contracts';

export type { CallForward };

/** One step of the call's history: the status at the time, and what the step was in words. */
export interface CallEvent {
  id: number;
  status: number;
  status_label: string;
  detail: Record<string, unknown>;
  created_at: string;
  title?: string;
  text?: string;
}

export interface Tag {
  id: number;
  name: string;
}

export interface Note {
  id: number;
  model_type: string;
  model_id: number;
  body: string;
  user_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface CallDetail {
  id: number;
  company_id: number;
  number_id: number;
  from: string;
  to: string;
  from_state: string | null;
  direction: string;
  status: number;
  status_label: string;
  extension: number | null;
  forwarded_to: string | null;
  duration_s: number;
  started_at: string;
  answered_at: string | null;
  ended_at: string | null;
  history: CallEvent[];
  voicemail: { id: number; recording_url: string; duration_s: number; is_read: boolean; created_at: string } | null;
  isInbound: boolean;
  tags: Tag[];
  note: Note | null;
  notes: Note[];
  /** Qualified 1, not qualified 2, lead 3 (spec 001 §3); null = not set. */
  qualification: 1 | 2 | 3 | null;
  /** Custom-field values (entity type Call 6). */
  eavAttributeValues: Array<{ attribute_id: number; value: unknown; name: string; type: string }>;
  /** The known caller, else null. */
  contact?: { id: number; name: string } | null;
  /** The business number's label ('' when none). */
  number_label?: string;
  /** The inbox conversation holding the call (null: none, e.g. a blocked caller). */
  conversation_id?: number | null;
  /** Whether the outside party is blocked now. */
  caller_blocked?: boolean;
  /** Every forward rung, in order, with its outcome. */
  forwards?: CallForward[];
}
