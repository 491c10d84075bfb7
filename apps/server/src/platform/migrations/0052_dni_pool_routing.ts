/**
 * Where a tracking pool's calls ring (issue 23 item 1; docs/tracking.md "Routing target"): every pool
 * has a routing target chosen when it is created, one of
 * - `number`: a copy of a company number's routing (`routing_number_id`),
 * - `template`: a number template (`routing_template_id`),
 * - `forward`: a forward to a phone number (`routing_forward`, E.164);
 * `routing` keeps the routes and schedule the target stood for when it was saved (what the pool's
 * numbers were given, and what a pool number still without routes rings at call time).
 * Existing pools with a fallback number take that number's routing as their target (the fallback is
 * the company's own number written on the website, usually its main line); others stay without one
 * (flagged in the pool editor until a target is chosen).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table dni_pools
      add column routing_type text check (routing_type in ('number', 'template', 'forward')),
      add column routing_number_id bigint references numbers(id) on delete set null,
      add column routing_template_id bigint references number_templates(id) on delete set null,
      add column routing_forward text,
      add column routing jsonb;
    update dni_pools p
       set routing_type = 'number', routing_number_id = n.id,
           routing = jsonb_build_object('routes', n.routes, 'schedule', n.schedule)
      from numbers n
     where n.id = p.fallback_number_id and p.routing_type is null and jsonb_array_length(coalesce(n.routes, '[]'::jsonb)) > 0;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table dni_pools
      drop column if exists routing,
      drop column if exists routing_forward,
      drop column if exists routing_template_id,
      drop column if exists routing_number_id,
      drop column if exists routing_type;
  `.execute(db);
}
