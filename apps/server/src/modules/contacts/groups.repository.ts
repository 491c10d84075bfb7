/**
 * SQL for `contact_groups`, `contact_group_members`, `contact_labels` and `contact_label_members`
 * (the contacts module owns them, with `contacts`). Membership queries join `contacts` for
 * counters and recipients, so each stays one statement.
 */
import { type Expression, sql } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';
import type { Row } from '../../platform/db/schema.js';

export type GroupRow = Row<'contact_groups'>;
export type LabelRow = Row<'contact_labels'>;
export type GroupCounters = { contact_count: number; active_count: number; invalid_count: number; unsubscriber_count: number };
export type RecipientRow = {
  id: number;
  name: string;
  first_name: string;
  last_name: string;
  number: string | null;
  email: string | null;
  is_unsubscribed: boolean;
  is_invalid: boolean;
};

/** Live groups of the company among `groupIds` (deleted groups and other companies' groups excluded). */
function liveGroupIds(db: DbOrTx, companyId: number, groupIds: number[]) {
  return db.selectFrom('contact_groups').select('id').where('company_id', '=', companyId).where('deleted_at', 'is', null).where('id', 'in', groupIds);
}

/** SQL for contact groups, labels and their memberships. */
export const groupsRepository = {
  /** Distinct contacts in any of the groups, by id ascending, after `afterId`, at most `limit`. */
  async recipients(db: DbOrTx, companyId: number, groupIds: number[], afterId: number, limit: number): Promise<RecipientRow[]> {
    if (groupIds.length === 0) return [];
    return db
      .selectFrom('contacts as c')
      .select(['c.id', 'c.name', 'c.first_name', 'c.last_name', 'c.number', 'c.email', 'c.is_unsubscribed', 'c.is_invalid'])
      .where('c.company_id', '=', companyId)
      .where('c.id', '>', afterId)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('contact_group_members as m')
            .select(sql`1`.as('one'))
            .whereRef('m.contact_id', '=', 'c.id')
            .where('m.group_id', 'in', liveGroupIds(db, companyId, groupIds)),
        ),
      )
      .orderBy('c.id')
      .limit(limit)
      .execute();
  },

  /** Counters over the distinct contacts of the groups. */
  async countRecipients(db: DbOrTx, companyId: number, groupIds: number[]): Promise<{ total: number; active: number; unsubscribed: number; invalid: number }> {
    if (groupIds.length === 0) return { total: 0, active: 0, unsubscribed: 0, invalid: 0 };
    const r = await db
      .selectFrom('contacts as c')
      .select([
        sql<number>`count(*)::int`.as('total'),
        sql<number>`count(*) filter (where not c.is_unsubscribed and not c.is_invalid)::int`.as('active'),
        sql<number>`count(*) filter (where c.is_unsubscribed)::int`.as('unsubscribed'),
        sql<number>`count(*) filter (where c.is_invalid)::int`.as('invalid'),
      ])
      .where('c.company_id', '=', companyId)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('contact_group_members as m')
            .select(sql`1`.as('one'))
            .whereRef('m.contact_id', '=', 'c.id')
            .where('m.group_id', 'in', liveGroupIds(db, companyId, groupIds)),
        ),
      )
      .executeTakeFirstOrThrow();
    return r;
  },

  /** The company of a live (not deleted) group, or undefined. */
  async companyOfLiveGroup(db: DbOrTx, id: number): Promise<number | undefined> {
    return (await db.selectFrom('contact_groups').select('company_id').where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst())?.company_id;
  },
  async listGroups(db: DbOrTx, companyId: number, search?: string): Promise<Array<GroupRow & GroupCounters>> {
    let q = db
      .selectFrom('contact_groups as g')
      .selectAll('g')
      .select([
        sql<number>`(select count(*)::int from contact_group_members m join contacts c on c.id = m.contact_id where m.group_id = g.id)`.as('contact_count'),
        sql<number>`(select count(*)::int from contact_group_members m join contacts c on c.id = m.contact_id where m.group_id = g.id and not c.is_unsubscribed and not c.is_invalid)`.as(
          'active_count',
        ),
        sql<number>`(select count(*)::int from contact_group_members m join contacts c on c.id = m.contact_id where m.group_id = g.id and c.is_invalid)`.as(
          'invalid_count',
        ),
        sql<number>`(select count(*)::int from contact_group_members m join contacts c on c.id = m.contact_id where m.group_id = g.id and c.is_unsubscribed)`.as(
          'unsubscriber_count',
        ),
      ])
      .where('g.company_id', '=', companyId)
      .where('g.deleted_at', 'is', null);
    if (search) q = q.where('g.name', 'ilike', `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    return q.orderBy('g.name').orderBy('g.id').execute();
  },
  async findGroup(db: DbOrTx, companyId: number, id: number): Promise<(GroupRow & GroupCounters) | undefined> {
    const rows = await db
      .selectFrom('contact_groups as g')
      .selectAll('g')
      .select([
        sql<number>`(select count(*)::int from contact_group_members m join contacts c on c.id = m.contact_id where m.group_id = g.id)`.as('contact_count'),
        sql<number>`(select count(*)::int from contact_group_members m join contacts c on c.id = m.contact_id where m.group_id = g.id and not c.is_unsubscribed and not c.is_invalid)`.as(
          'active_count',
        ),
        sql<number>`(select count(*)::int from contact_group_members m join contacts c on c.id = m.contact_id where m.group_id = g.id and c.is_invalid)`.as(
          'invalid_count',
        ),
        sql<number>`(select count(*)::int from contact_group_members m join contacts c on c.id = m.contact_id where m.group_id = g.id and c.is_unsubscribed)`.as(
          'unsubscriber_count',
        ),
      ])
      .where('g.company_id', '=', companyId)
      .where('g.deleted_at', 'is', null)
      .where('g.id', '=', id)
      .execute();
    return rows[0];
  },
  /** Ids among `ids` that are live groups of the company. */
  async existingGroupIds(db: DbOrTx, companyId: number, ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    return (await liveGroupIds(db, companyId, ids).execute()).map((r) => r.id);
  },
  async insertGroup(db: DbOrTx, row: { company_id: number; name: string; user_id: number | null; virtual?: boolean; link?: string | null }): Promise<GroupRow> {
    return db.insertInto('contact_groups').values(row).returningAll().executeTakeFirstOrThrow();
  },
  async updateGroup(db: DbOrTx, companyId: number, id: number, patch: { name?: string; link?: string | null }): Promise<void> {
    await db
      .updateTable('contact_groups')
      .set({ ...patch, updated_at: new Date() })
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .execute();
  },
  /** Soft delete; members are removed so counters and recipients forget the group. */
  async softDeleteGroup(db: DbOrTx, companyId: number, id: number): Promise<void> {
    await db
      .updateTable('contact_groups')
      .set({ deleted_at: new Date(), updated_at: new Date() })
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .execute();
    await db.deleteFrom('contact_group_members').where('group_id', '=', id).execute();
  },
  /** Adds every (group, contact) pair; existing pairs are kept. `contactIds` must already be the company's. */
  async addMembers(db: DbOrTx, groupIds: number[], contactIds: number[]): Promise<number> {
    if (groupIds.length === 0 || contactIds.length === 0) return 0;
    const r = await sql`insert into contact_group_members (group_id, contact_id)
      select g, c from unnest(${groupIds}::bigint[]) g cross join unnest(${contactIds}::bigint[]) c
      on conflict do nothing`.execute(db);
    return Number(r.numAffectedRows ?? 0);
  },
  /** Adds the contacts selected by a subquery (contact ids of the company) to one group. */
  async addMembersFromQuery(db: DbOrTx, groupId: number, contactIdsSql: Expression<unknown>): Promise<number> {
    const r = await sql`insert into contact_group_members (group_id, contact_id)
      select ${groupId}::bigint, x.id from (${contactIdsSql}) x on conflict do nothing`.execute(db);
    return Number(r.numAffectedRows ?? 0);
  },
  async removeMembers(db: DbOrTx, groupId: number, contactIds: number[]): Promise<number> {
    if (contactIds.length === 0) return 0;
    const r = await db.deleteFrom('contact_group_members').where('group_id', '=', groupId).where('contact_id', 'in', contactIds).executeTakeFirst();
    return Number(r.numDeletedRows);
  },
  async removeMembersFromQuery(db: DbOrTx, groupId: number, contactIdsSql: Expression<unknown>): Promise<number> {
    const r = await sql`delete from contact_group_members where group_id = ${groupId} and contact_id in (${contactIdsSql})`.execute(db);
    return Number(r.numAffectedRows ?? 0);
  },
  /** Groups of each contact: contact id → [{id, name}]. */
  async groupsOfContacts(db: DbOrTx, contactIds: number[]): Promise<Map<number, Array<{ id: number; name: string }>>> {
    const out = new Map<number, Array<{ id: number; name: string }>>();
    if (contactIds.length === 0) return out;
    const rows = await db
      .selectFrom('contact_group_members as m')
      .innerJoin('contact_groups as g', 'g.id', 'm.group_id')
      .select(['m.contact_id', 'g.id', 'g.name'])
      .where('m.contact_id', 'in', contactIds)
      .where('g.deleted_at', 'is', null)
      .orderBy('g.name')
      .execute();
    for (const r of rows) out.set(r.contact_id, [...(out.get(r.contact_id) ?? []), { id: r.id, name: r.name }]);
    return out;
  },
  async setContactGroups(db: DbOrTx, companyId: number, contactId: number, groupIds: number[]): Promise<void> {
    await db
      .deleteFrom('contact_group_members')
      .where('contact_id', '=', contactId)
      .where('group_id', 'in', db.selectFrom('contact_groups').select('id').where('company_id', '=', companyId))
      .execute();
    await groupsRepository.addMembers(db, groupIds, [contactId]);
  },

  // ---- labels ----
  async listLabels(db: DbOrTx, companyId: number): Promise<LabelRow[]> {
    return db.selectFrom('contact_labels').selectAll().where('company_id', '=', companyId).orderBy('label').execute();
  },
  async findLabel(db: DbOrTx, companyId: number, id: number): Promise<LabelRow | undefined> {
    return db.selectFrom('contact_labels').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
  },
  async findLabelByText(db: DbOrTx, companyId: number, label: string): Promise<LabelRow | undefined> {
    return db
      .selectFrom('contact_labels')
      .selectAll()
      .where('company_id', '=', companyId)
      .where(sql`lower(label)`, '=', label.toLowerCase())
      .executeTakeFirst();
  },
  async existingLabelIds(db: DbOrTx, companyId: number, ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    return (await db.selectFrom('contact_labels').select('id').where('company_id', '=', companyId).where('id', 'in', ids).execute()).map((r) => r.id);
  },
  /** Undefined when the company already has the label (case-insensitive; a concurrent insert included). */
  async insertLabel(db: DbOrTx, companyId: number, label: string): Promise<LabelRow | undefined> {
    return db
      .insertInto('contact_labels')
      .values({ company_id: companyId, label })
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst();
  },
  async deleteLabel(db: DbOrTx, companyId: number, id: number): Promise<void> {
    await db.deleteFrom('contact_labels').where('company_id', '=', companyId).where('id', '=', id).execute();
  },
  async addLabel(db: DbOrTx, labelId: number, contactIds: number[]): Promise<number> {
    if (contactIds.length === 0) return 0;
    const r =
      await sql`insert into contact_label_members (label_id, contact_id) select ${labelId}::bigint, c from unnest(${contactIds}::bigint[]) c on conflict do nothing`.execute(
        db,
      );
    return Number(r.numAffectedRows ?? 0);
  },
  async addLabelFromQuery(db: DbOrTx, labelId: number, contactIdsSql: Expression<unknown>): Promise<number> {
    const r =
      await sql`insert into contact_label_members (label_id, contact_id) select ${labelId}::bigint, x.id from (${contactIdsSql}) x on conflict do nothing`.execute(
        db,
      );
    return Number(r.numAffectedRows ?? 0);
  },
  async removeLabel(db: DbOrTx, labelId: number, contactIds: number[]): Promise<number> {
    if (contactIds.length === 0) return 0;
    const r = await db.deleteFrom('contact_label_members').where('label_id', '=', labelId).where('contact_id', 'in', contactIds).executeTakeFirst();
    return Number(r.numDeletedRows);
  },
  async removeLabelFromQuery(db: DbOrTx, labelId: number, contactIdsSql: Expression<unknown>): Promise<number> {
    const r = await sql`delete from contact_label_members where label_id = ${labelId} and contact_id in (${contactIdsSql})`.execute(db);
    return Number(r.numAffectedRows ?? 0);
  },
  async labelsOfContacts(db: DbOrTx, contactIds: number[]): Promise<Map<number, Array<{ id: number; label: string }>>> {
    const out = new Map<number, Array<{ id: number; label: string }>>();
    if (contactIds.length === 0) return out;
    const rows = await db
      .selectFrom('contact_label_members as m')
      .innerJoin('contact_labels as l', 'l.id', 'm.label_id')
      .select(['m.contact_id', 'l.id', 'l.label'])
      .where('m.contact_id', 'in', contactIds)
      .orderBy('l.label')
      .execute();
    for (const r of rows) out.set(r.contact_id, [...(out.get(r.contact_id) ?? []), { id: r.id, label: r.label }]);
    return out;
  },
  async setContactLabels(db: DbOrTx, companyId: number, contactId: number, labelIds: number[]): Promise<void> {
    await db
      .deleteFrom('contact_label_members')
      .where('contact_id', '=', contactId)
      .where('label_id', 'in', db.selectFrom('contact_labels').select('id').where('company_id', '=', companyId))
      .execute();
    for (const id of labelIds) await groupsRepository.addLabel(db, id, [contactId]);
  },
};
