/** SQL for the `sessions` and `api_tokens` tables (platform/auth owns them). */
import { sql } from 'kysely';
import type { DbOrTx } from '../db/db.js';

/** A live session; `operator_user_id` and `admin_company_id` are set for admin sessions (docs/auth.md "Admin mode"). */
export type SessionRow = {
  id: string;
  user_id: number;
  mfa_pending: boolean;
  expires_at: Date;
  remember: boolean;
  operator_user_id: number | null;
  admin_company_id: number | null;
};

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
      .leftJoin('admin_sessions', 'admin_sessions.session_id', 'sessions.id')
      .select([
        'sessions.id',
        'sessions.user_id',
        'sessions.mfa_pending',
        'sessions.expires_at',
        'sessions.remember',
        'admin_sessions.operator_user_id',
        'admin_sessions.company_id as admin_company_id',
      ])
      .where('sessions.id', '=', id)
      .where('sessions.expires_at', '>', new Date())
      .executeTakeFirst();
  },
  /** Marks a session (just created) as an admin session of `operatorUserId` in `companyId`, ending at `expiresAt`. */
  async markAdmin(db: DbOrTx, row: { session_id: string; operator_user_id: number; company_id: number; expires_at: Date }): Promise<void> {
    await db.insertInto('admin_sessions').values(row).execute();
  },
  /** The admin facts of a live admin session, or undefined. */
  async findAdmin(db: DbOrTx, sessionId: string): Promise<{ operator_user_id: number; company_id: number; started_at: Date; expires_at: Date } | undefined> {
    return db
      .selectFrom('admin_sessions')
      .select(['operator_user_id', 'company_id', 'started_at', 'expires_at'])
      .where('session_id', '=', sessionId)
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
  /** A live bearer token by hash: a device sign-in (`kind` 'session') or an API key ('personal', with its scopes and business unit). */
  async findToken(
    db: DbOrTx,
    hash: string,
  ): Promise<{ id: number; user_id: number; kind: 'session' | 'personal'; scopes: string[]; organization_id: number | null } | undefined> {
    return db
      .selectFrom('api_tokens')
      .select(['id', 'user_id', 'kind', 'scopes', 'organization_id'])
      .where('token_hash', '=', hash)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date())]))
      .executeTakeFirst();
  },
  /** Records a token's use (time, and the caller's address when given). */
  async touchToken(db: DbOrTx, id: number, ip?: string): Promise<void> {
    await db
      .updateTable('api_tokens')
      .set({ last_used_at: new Date(), ...(ip ? { last_used_ip: ip } : {}) })
      .where('id', '=', id)
      .execute();
  },
  async deleteTokensForUser(db: DbOrTx, userId: number): Promise<void> {
    await db.deleteFrom('api_tokens').where('user_id', '=', userId).execute();
  },
};
