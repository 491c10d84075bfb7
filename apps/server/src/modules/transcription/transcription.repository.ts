/**
 * SQL for `transcripts` and `transcript_segments` (migration 0030_transcription). The transcription
 * module owns these tables; other modules read through `transcription.service.ts`.
 */
import type { DbOrTx } from '../../platform/db/db.js';
import type { Row } from '../../platform/db/schema.js';

export type TranscriptRow = Row<'transcripts'>;
export type SegmentRow = Row<'transcript_segments'>;

/** A segment to store (times in seconds). */
export type NewSegment = { channel: number; speaker: number; transcript: string; start: number; end: number };

export const transcriptionRepository = {
  /** The call's own recording transcript (not its voicemail's). */
  async findForCall(db: DbOrTx, callId: number): Promise<TranscriptRow | undefined> {
    return db.selectFrom('transcripts').selectAll().where('call_id', '=', callId).where('voicemail_id', 'is', null).executeTakeFirst();
  },
  /** The transcript of the call's voicemail (the newest, should a call hold several). */
  async findVoicemailOfCall(db: DbOrTx, callId: number): Promise<TranscriptRow | undefined> {
    return db
      .selectFrom('transcripts')
      .selectAll()
      .where('call_id', '=', callId)
      .where('voicemail_id', 'is not', null)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  },
  /**
   * Complete voicemail transcripts with id above `afterId`, ascending, at most `limit` (the search backfill pages
   * through them): transcript id, call and company.
   */
  async completeVoicemailTranscripts(db: DbOrTx, afterId: number, limit: number): Promise<Array<{ id: number; call_id: number; company_id: number }>> {
    return db
      .selectFrom('transcripts')
      .select(['id', 'call_id', 'company_id'])
      .where('voicemail_id', 'is not', null)
      .where('state', '=', 'complete')
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
  },
  async findForVoicemail(db: DbOrTx, voicemailId: number): Promise<TranscriptRow | undefined> {
    return db.selectFrom('transcripts').selectAll().where('voicemail_id', '=', voicemailId).executeTakeFirst();
  },
  /** The transcripts of these voicemails (one statement for a page). */
  async forVoicemails(db: DbOrTx, voicemailIds: number[]): Promise<TranscriptRow[]> {
    if (voicemailIds.length === 0) return [];
    return db.selectFrom('transcripts').selectAll().where('voicemail_id', 'in', voicemailIds).execute();
  },
  async find(db: DbOrTx, id: number): Promise<TranscriptRow | undefined> {
    return db.selectFrom('transcripts').selectAll().where('id', '=', id).executeTakeFirst();
  },
  async findForUpdate(db: DbOrTx, id: number): Promise<TranscriptRow | undefined> {
    return db.selectFrom('transcripts').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  },
  /**
   * Creates the `loading` transcript of a call recording or voicemail; an existing one (a repeated
   * webhook) is returned unchanged with `created: false`.
   */
  async createLoading(
    db: DbOrTx,
    row: { company_id: number; call_id: number; voicemail_id: number | null; recording_id: number | null; metadata: Record<string, unknown> },
  ): Promise<{ row: TranscriptRow; created: boolean }> {
    const inserted = await db
      .insertInto('transcripts')
      .values({ ...row, metadata: JSON.stringify(row.metadata) })
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) return { row: inserted, created: true };
    const existing = row.voicemail_id !== null ? await this.findForVoicemail(db, row.voicemail_id) : await this.findForCall(db, row.call_id);
    if (!existing) throw new Error(`transcript for call ${row.call_id} neither inserted nor found`);
    return { row: existing, created: false };
  },
  async countAttempt(db: DbOrTx, id: number): Promise<void> {
    await db
      .updateTable('transcripts')
      .set((eb) => ({ attempts: eb('attempts', '+', 1), updated_at: new Date() }))
      .where('id', '=', id)
      .execute();
  },
  /** Writes the complete transcript: its text, metadata, statistics and all its segments (call inside one transaction). */
  async complete(
    db: DbOrTx,
    id: number,
    done: { text: string; metadata: Record<string, unknown>; agentPct: number | null; clientPct: number | null; segments: NewSegment[] },
  ): Promise<void> {
    await db.deleteFrom('transcript_segments').where('transcript_id', '=', id).execute();
    if (done.segments.length > 0) {
      await db
        .insertInto('transcript_segments')
        .values(
          done.segments.map((s, i) => ({
            transcript_id: id,
            position: i,
            channel: s.channel,
            speaker: s.speaker,
            transcript: s.transcript,
            start_s: s.start,
            end_s: s.end,
          })),
        )
        .execute();
    }
    const now = new Date();
    await db
      .updateTable('transcripts')
      .set({
        state: 'complete',
        text: done.text,
        metadata: JSON.stringify(done.metadata),
        agent_pct: done.agentPct,
        client_pct: done.clientPct,
        updated_at: now,
        completed_at: now,
      })
      .where('id', '=', id)
      .execute();
  },
  /** Marks the transcript failed with `metadata` (its error); any segments are removed. */
  async fail(db: DbOrTx, id: number, metadata: Record<string, unknown>): Promise<void> {
    await db.deleteFrom('transcript_segments').where('transcript_id', '=', id).execute();
    await db
      .updateTable('transcripts')
      .set({ state: 'failed', text: '', metadata: JSON.stringify(metadata), agent_pct: null, client_pct: null, updated_at: new Date() })
      .where('id', '=', id)
      .execute();
  },
  /** Back to `loading` (a retry asked for after a failure). */
  async reset(db: DbOrTx, id: number, metadata: Record<string, unknown>): Promise<void> {
    await db
      .updateTable('transcripts')
      .set({ state: 'loading', metadata: JSON.stringify(metadata), attempts: 0, updated_at: new Date() })
      .where('id', '=', id)
      .execute();
  },
  async segments(db: DbOrTx, transcriptId: number): Promise<SegmentRow[]> {
    return db.selectFrom('transcript_segments').selectAll().where('transcript_id', '=', transcriptId).orderBy('position').execute();
  },
};
