/**
 * SQL for personal access tokens (API keys; spec 001 "API keys") in the `api_tokens` table, which platform/auth owns
 * because the request guard reads it. The api-keys module manages keys only through these functions. Only the SHA-256
 * hash of a key is stored (`token_hash`); `token_prefix` is its first characters, for lists.
 */
import type { DbOrTx } from '../db/db.js';

/** One API key as stored (no secret). Times UTC. */
export type ApiKeyRow = {
  id: number;
  user_id: number;
  name: string;
  scopes: string[];
  organization_id: number | null;
  token_prefix: string | null;
  created_at: Date;
  last_used_at: Date | null;
  last_used_ip: string | null;
  expires_at: Date | null;
};

const COLUMNS = ['id', 'user_id', 'name', 'scopes', 'organization_id', 'token_prefix', 'created_at', 'last_used_at', 'last_used_ip', 'expires_at'] as const;

export const apiKeysRepository = {
  async create(
    db: DbOrTx,
    row: { user_id: number; name: string; token_hash: string; token_prefix: string; scopes: string[]; organization_id: number | null; expires_at: Date | null },
  ): Promise<ApiKeyRow> {
    return db
      .insertInto('api_tokens')
      .values({ ...row, kind: 'personal' })
      .returning([...COLUMNS])
      .executeTakeFirstOrThrow();
  },
  /** The user's API keys, newest first (expired ones included: the list shows their expiry). */
  async listForUser(db: DbOrTx, userId: number): Promise<ApiKeyRow[]> {
    return db
      .selectFrom('api_tokens')
      .select([...COLUMNS])
      .where('user_id', '=', userId)
      .where('kind', '=', 'personal')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  },
  async find(db: DbOrTx, id: number): Promise<ApiKeyRow | undefined> {
    return db
      .selectFrom('api_tokens')
      .select([...COLUMNS])
      .where('id', '=', id)
      .where('kind', '=', 'personal')
      .executeTakeFirst();
  },
  /** Deletes the user's key; @returns whether one was deleted. */
  async delete(db: DbOrTx, userId: number, id: number): Promise<boolean> {
    const r = await db.deleteFrom('api_tokens').where('id', '=', id).where('user_id', '=', userId).where('kind', '=', 'personal').executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  },
};
