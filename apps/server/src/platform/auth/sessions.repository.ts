/** SQL for the `sessions` and `api_tokens` tables (platform/auth owns them). */
import { sql } from 'kysely';
import type { DbOrTx } from '../db/db.js';

export type SessionRow = { id: string; user_id: number; mfa_pending: boolean; expires_at: Date; remember: boolean };

export const sessionsRepository = {
  async create(
    db: DbOrTx,
    row: { id: string; user_id: number; mfa_pending: boolean; expires_at: Date; user_agent: string | null; ip: string | null; remember: boolean },
  ): Promise<void> {
    await db.insertInto('sessions').values(row).execute();
  },
  async find(db: DbOrTx, id: string): Promise<SessionRow | undefined> {
    return db
      .selectFrom('sessions')
      .select(['id', 'user_id', 'mfa_pending', 'expires_at', 'remember'])
      .where('id', '=', id)
      .where('expires_at', '>', new Date())
      .executeTakeFirst();
  },
  /** Of the session ids given, those still signed in (unexpired, past the MFA step). */
  async liveSessionIds(db: DbOrTx, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await db
      .selectFrom('sessions')
      .select('id')
      .where(sql<boolean>`id = any(${ids}::text[])`)
      .where('expires_at', '>', new Date())
      .where('mfa_pending', '=', false)
      .execute();
    return new Set(rows.map((r) => r.id));
  },
  /** Of the bearer token hashes given, those still valid (unexpired, not revoked). */
  async liveTokenHashes(db: DbOrTx, hashes: string[]): Promise<Set<string>> {
    if (!hashes.length) return new Set();
    const rows = await db
      .selectFrom('api_tokens')
      .select('token_hash')
      .where(sql<boolean>`token_hash = any(${hashes}::text[])`)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date())]))
      .execute();
    return new Set(rows.map((r) => r.token_hash));
  },
  async touch(db: DbOrTx, id: string, expiresAt: Date): Promise<void> {
    await db.updateTable('sessions').set({ last_seen_at: new Date(), expires_at: expiresAt }).where('id', '=', id).execute();
  },
  async completeMfa(db: DbOrTx, id: string): Promise<void> {
    await db.updateTable('sessions').set({ mfa_pending: false }).where('id', '=', id).execute();
  },
  async delete(db: DbOrTx, id: string): Promise<void> {
    await db.deleteFrom('sessions').where('id', '=', id).execute();
  },
  async deleteForUser(db: DbOrTx, userId: number): Promise<void> {
    await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  },
  async createToken(db: DbOrTx, row: { user_id: number; name: string; token_hash: string; expires_at: Date | null }): Promise<number> {
    const r = await db.insertInto('api_tokens').values(row).returning('id').executeTakeFirstOrThrow();
    return r.id;
  },
  async findToken(db: DbOrTx, hash: string): Promise<{ id: number; user_id: number } | undefined> {
    return db
      .selectFrom('api_tokens')
      .select(['id', 'user_id'])
      .where('token_hash', '=', hash)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date())]))
      .executeTakeFirst();
  },
  async touchToken(db: DbOrTx, id: number): Promise<void> {
    await db.updateTable('api_tokens').set({ last_used_at: new Date() }).where('id', '=', id).execute();
  },
  async deleteTokensForUser(db: DbOrTx, userId: number): Promise<void> {
    await db.deleteFrom('api_tokens').where('user_id', '=', userId).execute();
  },
};
