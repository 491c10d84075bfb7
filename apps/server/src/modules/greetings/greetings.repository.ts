/** SQL for `greetings` and `greeting_assignments` (migration 0003). */
import type { DbOrTx } from '../../platform/db/db.js';
import type { NewRow, Row, RowUpdate } from '../../platform/db/schema.js';

export type GreetingRow = Row<'greetings'>;
export type AssignmentRow = Row<'greeting_assignments'>;

export const greetingsRepository = {
  async list(db: DbOrTx, companyId: number): Promise<GreetingRow[]> {
    return db.selectFrom('greetings').selectAll().where('company_id', '=', companyId).orderBy('id', 'desc').execute();
  },
  async find(db: DbOrTx, id: number): Promise<GreetingRow | undefined> {
    return db.selectFrom('greetings').selectAll().where('id', '=', id).executeTakeFirst();
  },
  async findMany(db: DbOrTx, companyId: number, ids: number[]): Promise<GreetingRow[]> {
    if (ids.length === 0) return [];
    return db.selectFrom('greetings').selectAll().where('company_id', '=', companyId).where('id', 'in', ids).execute();
  },
  async insert(db: DbOrTx, row: NewRow<'greetings'>): Promise<GreetingRow> {
    return db.insertInto('greetings').values(row).returningAll().executeTakeFirstOrThrow();
  },
  async update(db: DbOrTx, id: number, patch: RowUpdate<'greetings'>): Promise<GreetingRow> {
    return db
      .updateTable('greetings')
      .set({ ...patch, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  async delete(db: DbOrTx, id: number): Promise<void> {
    await db.deleteFrom('greetings').where('id', '=', id).execute();
  },
  async assignments(db: DbOrTx, numberId: number): Promise<AssignmentRow[]> {
    return db.selectFrom('greeting_assignments').selectAll().where('number_id', '=', numberId).orderBy('extension').orderBy('kind').execute();
  },
  /** The number's assignments with each greeting's audio key. */
  async assignmentsWithAudio(db: DbOrTx, numberId: number): Promise<Array<AssignmentRow & { audio_key: string }>> {
    return db
      .selectFrom('greeting_assignments')
      .innerJoin('greetings', 'greetings.id', 'greeting_assignments.greeting_id')
      .selectAll('greeting_assignments')
      .select('greetings.audio_key')
      .where('greeting_assignments.number_id', '=', numberId)
      .execute();
  },
  /** The assignments (with audio) of the company's greetings, for the call flow's cache. */
  async companyAssignmentsWithAudio(db: DbOrTx, companyId: number): Promise<Array<{ number_id: number; extension: number; kind: string; audio_key: string }>> {
    return db
      .selectFrom('greeting_assignments')
      .innerJoin('greetings', 'greetings.id', 'greeting_assignments.greeting_id')
      .select(['greeting_assignments.number_id', 'greeting_assignments.extension', 'greeting_assignments.kind', 'greetings.audio_key'])
      .where('greetings.company_id', '=', companyId)
      .execute();
  },
  async replaceAssignments(db: DbOrTx, numberId: number, rows: Array<Omit<AssignmentRow, 'number_id'>>): Promise<void> {
    await db.deleteFrom('greeting_assignments').where('number_id', '=', numberId).execute();
    if (rows.length)
      await db
        .insertInto('greeting_assignments')
        .values(rows.map((r) => ({ ...r, number_id: numberId })))
        .execute();
  },
};
