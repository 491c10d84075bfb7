/** SQL for `webhook_receipts` (platform/http owns it). */
import { sql, type RawBuilder } from 'kysely';
import type { DbOrTx } from '../db/db.js';
import { opaqueArray } from '../db/prepared.js';

/** A delivery's stored answer. */
export type ReceiptRow = { key: string; status_code: number; content_type: string; body: string };

/** `status_code` of a receipt claimed by a delivery still in progress (never visible to others: the row commits with its answer). */
const PENDING = 0;

export const webhookReceiptsRepository = {
  /**
   * Claims `key` for this transaction: inserts a pending receipt unless one exists. A concurrent
   * claim of the same key waits on the primary key until this transaction ends (then finds the
   * committed receipt, or claims the key itself after a rollback).
   * `answer`: the delivery's answer when it is known before handling (stored with the claim, so no `complete` follows).
   * @returns true when this transaction claimed the key, false when a receipt is already stored.
   */
  async claim(db: DbOrTx, key: string, answer?: Omit<ReceiptRow, 'key'>): Promise<boolean> {
    const r = await db
      .insertInto('webhook_receipts')
      .values({ key, status_code: answer?.status_code ?? PENDING, content_type: answer?.content_type ?? '', body: answer?.body ?? '' })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('key')
      .executeTakeFirst();
    return Boolean(r);
  },
  async find(db: DbOrTx, key: string) {
    return db.selectFrom('webhook_receipts').select(['status_code', 'content_type', 'body']).where('key', '=', key).executeTakeFirst();
  },
  /**
   * For a webhook whose writes fit in ONE statement (handleOnceInOneStatement): the body of a
   * data-modifying CTE that claims `row.key` with its final answer (`insert … on conflict do
   * nothing returning key`). The caller's other CTEs must write only `where exists (select 1 from
   * <this CTE>)`, so a repeated delivery changes nothing; a concurrent repeat waits on the primary
   * key until the first statement commits.
   */
  claimWithAnswerCte(row: ReceiptRow): RawBuilder<unknown> {
    return sql`insert into webhook_receipts (key, status_code, content_type, body) values (${row.key}, ${row.status_code}, ${row.content_type}, ${row.body}) on conflict (key) do nothing returning key`;
  },
  /**
   * Batch form of `claimWithAnswerCte` (group commit; docs/architecture.md "The voice webhook's hot path"): the body of a data-modifying
   * CTE that claims every key of `rows` with its answer and returns the keys this statement
   * claimed. `rows` must be distinct by key (a duplicate would look claimed twice); keys are
   * claimed in key order, so two concurrent batches wait on each other's keys without a deadlock.
   */
  claimManyWithAnswersCte(rows: ReceiptRow[]): RawBuilder<unknown> {
    const sorted = [...rows].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const col = <K extends keyof ReceiptRow>(k: K) => sorted.map((r) => r[k]);
    return sql`insert into webhook_receipts (key, status_code, content_type, body)
      select u.key, u.status_code, u.content_type, u.body
      from unnest(${opaqueArray(col('key'), 'text[]')}, ${opaqueArray(col('status_code'), 'int[]')}, ${opaqueArray(col('content_type'), 'text[]')},
        ${opaqueArray(col('body'), 'text[]')}) with ordinality as u(key, status_code, content_type, body, ord)
      order by u.ord
      on conflict (key) do nothing returning key`;
  },
  /** Stores the answer of a claimed key (same transaction as the claim). */
  async complete(db: DbOrTx, row: { key: string; status_code: number; content_type: string; body: string }): Promise<void> {
    await db
      .updateTable('webhook_receipts')
      .set({ status_code: row.status_code, content_type: row.content_type, body: row.body })
      .where('key', '=', row.key)
      .execute();
  },
};
