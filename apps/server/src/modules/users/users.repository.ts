/** SQL for the `users` table (modules/users owns it). */
import type { DbOrTx } from '../../platform/db/db.js';
import type { Row } from '../../platform/db/schema.js';

export type UserRow = Row<'users'>;
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
};
