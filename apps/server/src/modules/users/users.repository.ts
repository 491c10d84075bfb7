/** SQL for the `users` table (modules/users owns it). */
import type { DbOrTx } from '../../platform/db/db.js';
import type { Row } from '../../platform/db/schema.js';

export type UserRow = Row<'users'>;

export const usersRepository = {
  async insert(db: DbOrTx, row: { email: string; first_name: string; last_name: string; password_hash: string; timezone: string }): Promise<number> {
    return (await db.insertInto('users').values(row).returning('id').executeTakeFirstOrThrow()).id;
  },
  async find(db: DbOrTx, id: number): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  },
  /** Case-insensitive match (the unique index is on `lower(email)`). */
  async findByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase())).executeTakeFirst();
  },
  async setPasswordHash(db: DbOrTx, id: number, hash: string): Promise<void> {
    await db.updateTable('users').set({ password_hash: hash, updated_at: new Date() }).where('id', '=', id).execute();
  },
  async setWhatsNewRead(db: DbOrTx, id: number, at: Date): Promise<void> {
    await db.updateTable('users').set({ read_whats_new_at: at, updated_at: new Date() }).where('id', '=', id).execute();
  },
  async setTotp(db: DbOrTx, id: number, secret: string | null, enabled: boolean): Promise<void> {
    await db.updateTable('users').set({ totp_secret: secret, totp_enabled: enabled, updated_at: new Date() }).where('id', '=', id).execute();
  },
};
