/**
 * Transcript search at scale (modules/call-intelligence; docs/call-intelligence.md "Search at scale"): each
 * full-text GIN index of `call_search_docs` also indexes the week the call started in, so "the matches of a word in
 * the last N weeks" is one GIN scan that intersects the word's and the weeks' lists, without reading the other
 * matches. `call_search_week(started_at)`: `{weeks since 1970-01-01 UTC}` (an `int[]` of one element, for the
 * built-in `array_ops`; immutable). The three indexes replace 0031's single-column ones (a query on the vector alone
 * still uses them).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function call_search_week(t timestamptz) returns int[] language sql immutable parallel safe
      as $$ select array[floor(extract(epoch from (t - timestamptz '1970-01-01 00:00:00+00')) / 604800)::int] $$`.execute(db);
  for (const v of ['all', 'agent', 'client']) {
    await sql`create index ${sql.raw(`call_search_docs_tsv_${v}_week`)} on call_search_docs using gin (${sql.raw(`tsv_${v}`)}, call_search_week(started_at))`.execute(db);
    await sql`drop index ${sql.raw(`call_search_docs_tsv_${v}`)}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const v of ['all', 'agent', 'client']) {
    await sql`create index ${sql.raw(`call_search_docs_tsv_${v}`)} on call_search_docs using gin (${sql.raw(`tsv_${v}`)})`.execute(db);
    await sql`drop index ${sql.raw(`call_search_docs_tsv_${v}_week`)}`.execute(db);
  }
  await sql`drop function call_search_week(timestamptz)`.execute(db);
}
