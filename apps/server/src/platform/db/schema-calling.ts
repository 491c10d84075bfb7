/**
 * Kysely table types added for outbound calling (caller-ID choices; columns of existing calls tables stay in schema.ts); migration 0029_outbound_calls. Part of `DB` (schema.ts); every table is listed in
 * `modules/ownership.ts` TABLE_OWNERS under its owner.
 */
import type { ColumnType, Generated } from 'kysely';

/** modules/in-app-calling: the caller ID (a company number) a user last chose for outbound calls, per company (docs/calling.md). */
export interface CallerIdPreferencesTable {
  user_id: number;
  company_id: number;
  number_id: number;
  updated_at: Generated<Date>;
}

/**
 * carriers/sandbox: the simulated outside handset's leg of a call placed from the browser.
 * `parent_sid` is the browser leg (our call's carrier SID); `state` ringing | answered | ended;
 * `end_reason` rejected | no-answer | handset-hangup | agent-hangup | transferred | canceled;
 * `digits` the keypad tones the handset heard (DTMF); `dial_action` the Dial's action URL.
 */
export interface SandboxHandsetCallsTable {
  sid: string;
  parent_sid: string;
  /** The product's call id the softphone token carried (`call_id` param), shown nowhere else. */
  call_ref: string | null;
  from_number: string;
  to_number: string;
  state: string;
  end_reason: string | null;
  on_hold: Generated<boolean>;
  digits: Generated<string>;
  transferred_to: string | null;
  dial_action: string | null;
  timeout_s: Generated<number>;
  created_at: Generated<Date>;
  answered_at: Date | null;
  ended_at: Date | null;
  /** Lines said during the answered call (migration 0043): `[{speaker: 'caller'|'agent', text, at}]`, `at` in s since the answer. */
  lines: ColumnType<Array<{ speaker: 'caller' | 'agent'; text: string; at: number }>, string | undefined, string>;
  /** What the held handset hears: the number's on-hold greeting (signed URL); null = default music / not held. */
  hold_music_url: string | null;
}

export interface CallingTables {
  caller_id_preferences: CallerIdPreferencesTable;
  sandbox_handset_calls: SandboxHandsetCallsTable;
}
