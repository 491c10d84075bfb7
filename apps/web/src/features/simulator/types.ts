/** Shapes of the sandbox carrier's simulator endpoints (/api/simulator/...). */

/** What the simulator needs to know about a company number (the app passes the numbers in). */
export interface SimulatorNumber {
  id: number;
  number: string;
  label: string | null;
  routes: Array<{ extension: number; label: string; forwards: Array<{ number: string }>; confirm_key: number | null; voicemail_enabled: boolean }>;
}

export type ForwardOutcome = 'answer' | 'no-answer' | 'busy';

export interface PlaceCallInput {
  from: string;
  to: string;
  digits?: string;
  forwards?: Record<string, ForwardOutcome>;
  confirm?: boolean;
  voicemail_seconds?: number;
}

export interface CallLogStep {
  at: string;
  step: string;
  detail: string;
}

export interface PlaceCallResult {
  sid: string;
  status: string;
  log: CallLogStep[];
}

/** A message on the simulated handset (HandsetMessageSchema in @switchboard/contracts). */
export interface HandsetMessage {
  sid: string;
  /** Seen from the company: 'inbound' = the handset texted the business number. */
  direction: 'inbound' | 'outbound';
  from: string;
  to: string;
  business_number: string;
  body: string;
  media: string[];
  status: string;
  error_code: number | null;
  created_at: string;
}
