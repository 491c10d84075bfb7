/** SQL for the `users` table (modules/users owns it). */
import type { DbOrTx } from '../../platform/db/db.js';
import type { Insertable } from 'kysely';
import type { DB, Row } from '../../platform/db/schema.js';

export type UserRow = Row<'users'>;
export type InvitationRow = Row<'invitations'>;
/** The in-app calling columns of a user (spec 001 in-app calling), with the name shown for them. */
export type InAppCallingProfileRow = Pick<
  UserRow,
  'id' | 'first_name' | 'last_name' | 'email' | 'in_app_calling_status' | 'sip_address' | 'sip_user' | 'sip_password'
>;
const IN_APP_COLUMNS = ['id', 'first_name', 'last_name', 'email', 'in_app_calling_status', 'sip_address', 'sip_user', 'sip_password'] as const;

/** SQL for `users`. */
export const usersRepository = {
  async insert(db: DbOrTx, row: { email: string; first_name: string; last_name: string; password_hash: string; timezone: string }): Promise<number> {
    return (await db.insertInto('users').values(row).returning('id').executeTakeFirstOrThrow()).id;
  },
  async find(db: DbOrTx, id: number): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  },
  /** Case-insensitive match (the unique index is on `lower(email)`). */
  async findByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
    return db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
      .executeTakeFirst();
  },
  async setPasswordHash(db: DbOrTx, id: number, hash: string): Promise<void> {
    await db.updateTable('users').set({ password_hash: hash, updated_at: new Date() }).where('id', '=', id).execute();
  },
  async setWhatsNewRead(db: DbOrTx, id: number, at: Date): Promise<void> {
    await db.updateTable('users').set({ read_whats_new_at: at, updated_at: new Date() }).where('id', '=', id).execute();
  },
  async inAppCallingProfile(db: DbOrTx, id: number): Promise<InAppCallingProfileRow | undefined> {
    return db.selectFrom('users').select(IN_APP_COLUMNS).where('id', '=', id).executeTakeFirst();
  },
  /** The profiles of these users, by first name, last name, id. */
  async inAppCallingProfiles(db: DbOrTx, ids: readonly number[]): Promise<InAppCallingProfileRow[]> {
    if (ids.length === 0) return [];
    return db.selectFrom('users').select(IN_APP_COLUMNS).where('id', 'in', ids).orderBy('first_name').orderBy('last_name').orderBy('id').execute();
  },
  /** Those of `ids` whose in-app calling status is `active`, ascending. */
  async activeInAppCallingIds(db: DbOrTx, ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await db.selectFrom('users').select('id').where('id', 'in', ids).where('in_app_calling_status', '=', 'active').orderBy('id').execute();
    return rows.map((r) => r.id);
  },
  /** `first_name last_name` (trimmed) of these users. */
  async names(db: DbOrTx, ids: readonly number[]): Promise<Array<Pick<UserRow, 'id' | 'first_name' | 'last_name'>>> {
    if (ids.length === 0) return [];
    return db.selectFrom('users').select(['id', 'first_name', 'last_name']).where('id', 'in', ids).execute();
  },
  async setInAppCallingStatus(db: DbOrTx, id: number, status: string): Promise<void> {
    await db.updateTable('users').set({ in_app_calling_status: status, updated_at: new Date() }).where('id', '=', id).execute();
  },
  async setSip(db: DbOrTx, id: number, sip: { sip_address: string; sip_user: string; sip_password: string }): Promise<void> {
    await db
      .updateTable('users')
      .set({ ...sip, updated_at: new Date() })
      .where('id', '=', id)
      .execute();
  },
  async setTotp(db: DbOrTx, id: number, secret: string | null, enabled: boolean): Promise<void> {
    await db.updateTable('users').set({ totp_secret: secret, totp_enabled: enabled, updated_at: new Date() }).where('id', '=', id).execute();
  },
  /** Name and e-mail of these users. */
  async people(db: DbOrTx, ids: readonly number[]): Promise<Array<Pick<UserRow, 'id' | 'first_name' | 'last_name' | 'email' | 'in_app_calling_status'>>> {
    if (ids.length === 0) return [];
    return db.selectFrom('users').select(['id', 'first_name', 'last_name', 'email', 'in_app_calling_status']).where('id', 'in', ids).execute();
  },

  // ---------------------------------------------------------------- user_numbers (docs/accounts.md "Per-user routing")

  /** Number ids assigned to each of these users in the company. */
  async numbersOf(db: DbOrTx, companyId: number, userIds: readonly number[]): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>(userIds.map((id) => [id, []]));
    if (userIds.length === 0) return out;
    const rows = await db
      .selectFrom('user_numbers')
      .select(['user_id', 'number_id'])
      .where('company_id', '=', companyId)
      .where('user_id', 'in', userIds)
      .orderBy('number_id')
      .execute();
    for (const r of rows) out.get(r.user_id)?.push(r.number_id);
    return out;
  },
  /** Replaces the numbers assigned to the user in the company. */
  async replaceNumbers(db: DbOrTx, companyId: number, userId: number, numberIds: readonly number[]): Promise<void> {
    await db.deleteFrom('user_numbers').where('company_id', '=', companyId).where('user_id', '=', userId).execute();
    if (numberIds.length === 0) return;
    await db
      .insertInto('user_numbers')
      .values([...new Set(numberIds)].map((number_id) => ({ company_id: companyId, user_id: userId, number_id })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  },
  /** Removes every assignment of the user in these companies. */
  async clearNumbers(db: DbOrTx, companyIds: readonly number[], userId: number): Promise<void> {
    if (companyIds.length === 0) return;
    await db.deleteFrom('user_numbers').where('company_id', 'in', companyIds).where('user_id', '=', userId).execute();
  },
  /** Users the number is assigned to in the company, ascending. */
  async assigneesOf(db: DbOrTx, companyId: number, numberId: number): Promise<number[]> {
    const rows = await db
      .selectFrom('user_numbers')
      .select('user_id')
      .where('company_id', '=', companyId)
      .where('number_id', '=', numberId)
      .orderBy('user_id')
      .execute();
    return rows.map((r) => r.user_id);
  },
  // ---------------------------------------------------------------- invitations

  async insertInvitation(db: DbOrTx, row: Insertable<DB['invitations']>): Promise<InvitationRow> {
    return db.insertInto('invitations').values(row).returningAll().executeTakeFirstOrThrow();
  },
  /** Pending (not accepted, not revoked) invitations of the company, newest first. */
  async pendingInvitations(db: DbOrTx, companyId: number): Promise<InvitationRow[]> {
    return db
      .selectFrom('invitations')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  },
  async pendingInvitationFor(db: DbOrTx, companyId: number, email: string): Promise<InvitationRow | undefined> {
    return db
      .selectFrom('invitations')
      .selectAll()
      .where('company_id', '=', companyId)
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
  },
  async invitation(db: DbOrTx, companyId: number, id: number): Promise<InvitationRow | undefined> {
    return db.selectFrom('invitations').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
  },
  /** The invitation of a link (by token hash), locked for update when `db` is a transaction. */
  async invitationByTokenHash(db: DbOrTx, tokenHash: string, lock = false): Promise<InvitationRow | undefined> {
    let q = db.selectFrom('invitations').selectAll().where('token_hash', '=', tokenHash);
    if (lock) q = q.forUpdate();
    return q.executeTakeFirst();
  },
  async renewInvitation(db: DbOrTx, id: number, tokenHash: string, expiresAt: Date): Promise<InvitationRow> {
    return db
      .updateTable('invitations')
      .set((eb) => ({ token_hash: tokenHash, expires_at: expiresAt, last_sent_at: new Date(), sent_count: eb('sent_count', '+', 1) }))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  async revokeInvitation(db: DbOrTx, id: number): Promise<void> {
    await db.updateTable('invitations').set({ revoked_at: new Date() }).where('id', '=', id).execute();
  },
  async markInvitationAccepted(db: DbOrTx, id: number, userId: number): Promise<void> {
    await db.updateTable('invitations').set({ accepted_at: new Date(), accepted_user_id: userId }).where('id', '=', id).execute();
  },
};
