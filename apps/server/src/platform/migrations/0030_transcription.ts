/**
 * Call recordings and transcripts with segments by speaker (modules/transcription, modules/calls;
 * docs/transcription.md).
 *
 * - `call_recordings` (calls): one two-channel recording of an answered call (channel 0 the caller,
 *   channel 1 the agent), announced by the carrier's recording status callback and copied into the
 *   blob store (`blob_key`, private to the company). `carrier_sid` makes the callback idempotent.
 * - `transcripts` (transcription): one per call recording (`voicemail_id` null) and one per
 *   voicemail; state loading | complete | failed; `metadata` {provider, language, audio_s, error};
 *   talk percentages of agent and client (0-100, two decimals).
 * - `transcript_segments` (transcription): the raw segments, channel, speaker (mixed 0, agent 1,
 *   client 2, spec 001 "Call (analysis view)"), text, start and end in seconds from the start of
 *   the recording. Written with their transcript's completion in one transaction.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table call_recordings (
      id bigserial primary key,
      company_id bigint not null references companies(id) on delete cascade,
      call_id bigint not null references calls(id) on delete cascade,
      carrier_sid text not null unique,
      source_url text not null,
      blob_key text,
      channels integer not null default 2,
      duration_s integer not null default 0,
      state text not null default 'pending' check (state in ('pending', 'stored', 'failed')),
      error text,
      created_at timestamptz not null default now(),
      stored_at timestamptz
    );
    create index call_recordings_call on call_recordings (call_id);

    create table transcripts (
      id bigserial primary key,
      company_id bigint not null references companies(id) on delete cascade,
      call_id bigint not null references calls(id) on delete cascade,
      voicemail_id bigint references voicemails(id) on delete cascade,
      recording_id bigint references call_recordings(id) on delete cascade,
      state text not null default 'loading' check (state in ('loading', 'complete', 'failed')),
      text text not null default '',
      metadata jsonb not null default '{}',
      agent_pct numeric(5, 2),
      client_pct numeric(5, 2),
      attempts integer not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      completed_at timestamptz
    );
    create unique index transcripts_call_recording on transcripts (call_id) where voicemail_id is null;
    create unique index transcripts_voicemail on transcripts (voicemail_id) where voicemail_id is not null;
    create index transcripts_company on transcripts (company_id, created_at desc);

    create table transcript_segments (
      id bigserial primary key,
      transcript_id bigint not null references transcripts(id) on delete cascade,
      position integer not null,
      channel integer not null,
      speaker smallint not null check (speaker in (0, 1, 2)),
      transcript text not null,
      start_s double precision not null,
      end_s double precision not null,
      unique (transcript_id, position)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists transcript_segments; drop table if exists transcripts; drop table if exists call_recordings;`.execute(db);
}
