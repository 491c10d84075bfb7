/** A voicemail (GET /api/voicemails): the caller, the number called and the recording. */
export interface Voicemail {
  id: number;
  call_id: number;
  number_id: number;
  from: string;
  to: string;
  recording_url: string;
  duration_s: number;
  is_read: boolean;
  created_at: string;
  /** The caller's contact, when known. */
  contact?: { id: number; name: string } | null;
  /** The business number's label ('' when none). */
  number_label?: string;
}

export interface PageMeta {
  current_page: number;
  per_page: number;
  total: number;
  last_page: number;
}
