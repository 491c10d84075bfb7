/**
 * 10DLC registration fees on invoices (modules/billing; docs/billing.md "Usage", docs/sms-verification.md "Fees"):
 * `billing_usage.kind` gains `registration_fees`, one row per fee of a submit, its quantity in integer cents.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table billing_usage drop constraint billing_usage_kind_check;
    alter table billing_usage add constraint billing_usage_kind_check check (kind in (
      'minutes_inbound', 'minutes_outbound', 'sms_segments', 'mms_messages', 'fax_pages', 'lookups', 'transcription_minutes',
      'registration_fees'));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    delete from billing_usage where kind = 'registration_fees';
    alter table billing_usage drop constraint billing_usage_kind_check;
    alter table billing_usage add constraint billing_usage_kind_check check (kind in (
      'minutes_inbound', 'minutes_outbound', 'sms_segments', 'mms_messages', 'fax_pages', 'lookups', 'transcription_minutes'));
  `.execute(db);
}
