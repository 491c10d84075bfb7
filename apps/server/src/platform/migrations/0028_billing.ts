/**
 * Tables of plans, subscriptions, payment methods, usage, invoices and dunning (modules/billing; docs/billing.md).
 * Money is integer cents (USD); times are UTC. The plan catalogue is seeded here (docs/billing.md "Plans").
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table billing_plans (
      id text primary key,
      family text not null,
      name text not null,
      interval text not null check (interval in ('month', 'year')),
      price_cents integer not null check (price_cents >= 0),
      included_numbers integer not null,
      included_minutes integer not null,
      included_messages integer not null,
      number_overage_cents integer not null,
      minute_overage_cents integer not null,
      message_overage_cents integer not null,
      position integer not null,
      active boolean not null default true
    );
    insert into billing_plans values
      ('starter_monthly', 'starter', 'Starter', 'month', 2900, 3, 250, 500, 300, 5, 2, 1, true),
      ('starter_yearly', 'starter', 'Starter (yearly)', 'year', 29000, 3, 250, 500, 300, 5, 2, 2, true),
      ('premium_monthly', 'premium', 'Premium', 'month', 7900, 10, 1000, 2000, 300, 4, 2, 3, true),
      ('premium_yearly', 'premium', 'Premium (yearly)', 'year', 79000, 10, 1000, 2000, 300, 4, 2, 4, true),
      ('deluxe_monthly', 'deluxe', 'Deluxe', 'month', 19900, 30, 5000, 10000, 250, 3, 1, 5, true),
      ('deluxe_yearly', 'deluxe', 'Deluxe (yearly)', 'year', 199000, 30, 5000, 10000, 250, 3, 1, 6, true);

    create table billing_accounts (
      company_id bigint primary key references companies(id) on delete cascade,
      billing_name text not null default '',
      billing_address text not null default '',
      billing_address_2 text not null default '',
      billing_city text not null default '',
      billing_state text not null default '',
      billing_zip text not null default '',
      billing_country text not null default '',
      gateway_customer_id text,
      payment_method_id text,
      card_brand text,
      card_last4 text,
      card_exp_month integer,
      card_exp_year integer,
      customer_email text,
      cc_emails jsonb not null default '[]',
      receives_invoice_emails boolean not null default true,
      credit_cents integer not null default 0,
      parked_by_billing boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    create table billing_subscriptions (
      company_id bigint primary key references companies(id) on delete cascade,
      plan_id text not null references billing_plans(id),
      status text not null check (status in ('trialing', 'active', 'past_due', 'canceled')),
      current_period_start timestamptz not null,
      current_period_end timestamptz not null,
      cancel_at_period_end boolean not null default false,
      pending_plan_id text references billing_plans(id),
      features jsonb not null default '[]',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index billing_subscriptions_due on billing_subscriptions (current_period_end) where status <> 'canceled';

    create table billing_usage (
      id bigserial primary key,
      company_id bigint not null references companies(id) on delete cascade,
      kind text not null check (kind in ('minutes_inbound', 'minutes_outbound', 'sms_segments', 'mms_messages')),
      source text not null,
      quantity integer not null check (quantity >= 0),
      occurred_at timestamptz not null,
      unique (kind, source)
    );
    create index billing_usage_company on billing_usage (company_id, occurred_at);

    create table billing_number_days (
      company_id bigint not null references companies(id) on delete cascade,
      day date not null,
      numbers integer not null,
      primary key (company_id, day)
    );

    create table billing_invoice_sequence (
      id integer primary key check (id = 1),
      last_number bigint not null
    );
    insert into billing_invoice_sequence values (1, 0);

    create table billing_invoices (
      id bigserial primary key,
      company_id bigint not null references companies(id) on delete cascade,
      number text not null unique,
      kind text not null check (kind in ('renewal', 'proration')),
      status text not null check (status in ('open', 'paid', 'void')),
      period_start timestamptz not null,
      period_end timestamptz not null,
      total_cents integer not null,
      amount_due_cents integer not null,
      attempt_count integer not null default 0,
      first_failed_at timestamptz,
      next_attempt_at timestamptz,
      last_error text,
      paid_at timestamptz,
      gateway_payment_id text,
      created_at timestamptz not null default now()
    );
    create index billing_invoices_company on billing_invoices (company_id, id desc);
    create index billing_invoices_retry on billing_invoices (next_attempt_at) where status = 'open';

    create table billing_invoice_lines (
      id bigserial primary key,
      invoice_id bigint not null references billing_invoices(id) on delete cascade,
      position integer not null,
      kind text not null,
      description text not null,
      quantity integer not null,
      unit_cents integer not null,
      amount_cents integer not null
    );
    create index billing_invoice_lines_invoice on billing_invoice_lines (invoice_id, position);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table if exists billing_invoice_lines, billing_invoices, billing_invoice_sequence, billing_number_days, billing_usage,
      billing_subscriptions, billing_accounts, billing_plans;
  `.execute(db);
}
