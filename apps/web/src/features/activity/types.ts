/** Shapes of GET /api/activity (spec 001 §3 "Activity item"). */

export type ActivityKindShown = 'call' | 'voicemail' | 'message';

export interface ActivityItem {
  id: number | string;
  kind: ActivityKindShown;
  created_at: string;
  /** The business number and its label. */
  number: { id: number; number: string; label?: string } | null;
  /** Calls and voicemails: the call's id (its detail at /calls/{id}). */
  call_id?: number;
  from: string;
  to: string;
  direction: 'inbound' | 'outbound' | string;
  status_label?: string | null;
  duration_s?: number | null;
  content?: string | null;
  delivery_state?: string | null;
  recording_url?: string | null;
  contact?: { id: number; name: string } | null;
}

/** Which kinds the feed shows. */
export interface ActivityFilter {
  calls: boolean;
  voicemails: boolean;
  messages: boolean;
}

export interface ActivityPage {
  data: ActivityItem[];
  meta: { current_page: number; last_page: number; total: number };
}
