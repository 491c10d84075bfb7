/** Shapes of GET /api/activity (spec 001 §3 "Activity item"). */

export type ActivityKindShown = 'call' | 'voicemail' | 'message';

export interface ActivityItem {
  id: number | string;
  kind: ActivityKindShown;
  created_at: string;
  number: { id: number; number: string } | null;
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
