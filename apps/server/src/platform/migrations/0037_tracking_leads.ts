/**
 * Call tracking leads (modules/tracking; docs/tracking.md "Leads"): the leads list reads a company's
 * leads by latest contact, and a lead's page reads its sessions and calls by lead id.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index dni_leads_recent on dni_leads (company_id, last_seen_at desc, id desc);
    create index dni_sessions_lead on dni_sessions (lead_id, started_at) where lead_id is not null;
    create index dni_call_attributions_lead on dni_call_attributions (lead_id, started_at) where lead_id is not null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index if exists dni_call_attributions_lead;
    drop index if exists dni_sessions_lead;
    drop index if exists dni_leads_recent;
  `.execute(db);
}
