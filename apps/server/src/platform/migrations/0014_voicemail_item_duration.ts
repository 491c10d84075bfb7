/**
 * One length for a voicemail (docs/messaging.md "Activity items name known callers"): the inbox
 * thread's voicemail items stored the call's length (greeting and ringing included) while Activity
 * and Voicemail show the recording's. New items take the recording's length (`announceCallChanged`);
 * this brings the stored items in line. Data only (owned by modules/conversations).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update conversation_items i set duration_s = v.duration_s
    from voicemails v
    where i.voicemail_id = v.id and i.duration_s is distinct from v.duration_s`.execute(db);
}

export async function down(): Promise<void> {
  // The calls' own lengths stay on the calls; nothing to restore.
}
