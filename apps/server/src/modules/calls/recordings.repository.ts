/** SQL for `call_recordings` (migration 0030_transcription): a call's two-channel recording. The calls module owns this table. */
import type { DbOrTx } from '../../platform/db/db.js';
import type { Row } from '../../platform/db/schema.js';

export type CallRecordingRow = Row<'call_recordings'>;

export const recordingsRepository = {
  /** Stores a recording the carrier announced; a repeated announcement (same `carrier_sid`) returns the stored row with `created: false`. */
  async insert(
    db: DbOrTx,
    row: { company_id: number; call_id: number; carrier_sid: string; source_url: string; channels: number; duration_s: number },
  ): Promise<{ row: CallRecordingRow; created: boolean }> {
    const inserted = await db
      .insertInto('call_recordings')
      .values(row)
      .onConflict((oc) => oc.column('carrier_sid').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) return { row: inserted, created: true };
    return { row: await db.selectFrom('call_recordings').selectAll().where('carrier_sid', '=', row.carrier_sid).executeTakeFirstOrThrow(), created: false };
  },
  async find(db: DbOrTx, id: number): Promise<CallRecordingRow | undefined> {
    return db.selectFrom('call_recordings').selectAll().where('id', '=', id).executeTakeFirst();
  },
  /** The call's latest recording. */
  async forCall(db: DbOrTx, callId: number): Promise<CallRecordingRow | undefined> {
    return db.selectFrom('call_recordings').selectAll().where('call_id', '=', callId).orderBy('id', 'desc').limit(1).executeTakeFirst();
  },
  async markStored(db: DbOrTx, id: number, blobKey: string): Promise<void> {
    await db.updateTable('call_recordings').set({ blob_key: blobKey, state: 'stored', stored_at: new Date(), error: null }).where('id', '=', id).execute();
  },
  async markFailed(db: DbOrTx, id: number, error: string): Promise<void> {
    await db.updateTable('call_recordings').set({ state: 'failed', error }).where('id', '=', id).where('state', '=', 'pending').execute();
  },
  /** Deletes every recording of the company; answers the deleted rows (their blobs are the caller's to delete). */
  async deleteOfCompany(db: DbOrTx, companyId: number): Promise<CallRecordingRow[]> {
    return db.deleteFrom('call_recordings').where('company_id', '=', companyId).returningAll().execute();
  },
  /** Deletes every voicemail of the company; answers their recording URLs (their blobs are the caller's to delete). */
  async deleteVoicemailsOfCompany(db: DbOrTx, companyId: number): Promise<Array<{ id: number; recording_url: string }>> {
    return db.deleteFrom('voicemails').where('company_id', '=', companyId).returning(['id', 'recording_url']).execute();
  },
};
