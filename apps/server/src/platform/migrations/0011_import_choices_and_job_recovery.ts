/**
 * Contact import choices and report (docs/contacts.md "Import"), and crash recovery of background
 * jobs (docs/operations.md "Crash recovery"):
 * - `contact_imports.duplicates` (skip | fill | overwrite), `skipped`, vCard files (`file_type` vcf); `contact_import_rows`: the
 *   per-row report (row number, outcome, reason) of every row that did not simply add a contact.
 * - `queue_workers` (one row per running process with workers, refreshed every few seconds) and
 *   `queue_active_jobs` (which worker runs which resumable job), so a live node retries a dead
 *   node's jobs within a minute instead of after pg-boss's 15-minute expiry (platform/queue.ts).
 * - `campaign_recipients.claimed_by`: the worker that claimed a recipient, so a dead worker's claims
 *   are reconciled at once rather than after the claim lease.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table contact_imports
      add column if not exists duplicates text not null default 'skip' check (duplicates in ('skip','fill','overwrite')),
      add column if not exists skipped integer not null default 0,
      drop constraint if exists contact_imports_file_type_check,
      add constraint contact_imports_file_type_check check (file_type in ('csv','xlsx','vcf'));
    create table if not exists contact_import_rows (
      import_id uuid not null references contact_imports(id) on delete cascade,
      row_number integer not null,
      outcome text not null check (outcome in ('updated','skipped','invalid')),
      reason text not null,
      name text,
      number text,
      primary key (import_id, row_number)
    );
    create table if not exists queue_workers (
      id uuid primary key,
      pid integer not null,
      host text not null,
      started_at timestamptz not null default now(),
      heartbeat_at timestamptz not null default now()
    );
    create table if not exists queue_active_jobs (
      job_id uuid primary key,
      queue text not null,
      worker_id uuid not null,
      started_at timestamptz not null default now()
    );
    create index if not exists queue_active_jobs_worker on queue_active_jobs (worker_id);
    alter table campaign_recipients add column if not exists claimed_by uuid;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table campaign_recipients drop column if exists claimed_by;
    drop table if exists queue_active_jobs;
    drop table if exists queue_workers;
    drop table if exists contact_import_rows;
    alter table contact_imports drop column if exists skipped, drop column if exists duplicates;
  `.execute(db);
}
