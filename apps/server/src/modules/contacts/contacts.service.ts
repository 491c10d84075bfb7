/**
 * Contacts (spec 001 §3 "Contact", §5, §7 "Contacts"): CRUD with every field, the derived name
 * (domain `deriveContactName`), list with filters and `meta.pagination`, upsert into groups,
 * bulk destroy / export over a selection (ids, or all + filters across every page), and the
 * lookups messaging uses (`findContactByNumber`, `getContactsByIds`, `findContactIdsByName`,
 * `createContact`, `setContactUnsubscribed`). Imports: contacts.import.ts.
 */
import { randomUUID } from 'node:crypto';
import type { BulkSelection, Contact as ContactOut, ContactFields, ContactListQuery, CreateContactBody } from '@switchboard/contracts';
import { EAV_ENTITY_TYPES, deriveContactName, parsePhone } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import { toCsv } from '../../platform/csv.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { GroupCommit } from '../../platform/db/group-commit.js';
import type { RowUpdate } from '../../platform/db/schema.js';
import { NotFoundError, ValidationError, fieldError, deniedAsNotFound } from '../../platform/http/errors.js';
import { pageMeta, type PageMeta } from '../../platform/http/page.js';
import { events, type AnyEvent } from '../../platform/events/index.js';
import { AGENT_ROLES, assertCompanyAccess, type Role } from '../companies/companies.service.js';
import { deleteEavValuesOf, getEavValuesMany, setEavValues } from '../custom-fields/custom-fields.service.js';
import { contactsRepository, type ContactRow, type ContactSelectionInput } from './contacts.repository.js';
import { resolveCompanyId } from './contacts.scope.js';
import { assertGroupIds, assertLabelIds, addContactsToGroups, membershipsOfContacts, setContactMemberships } from './groups.service.js';

export type Contact = ContactRow;
const CONTACT = EAV_ENTITY_TYPES.Contact;

/**
 * The company's contact whose number is `e164` (exact E.164 match; the oldest when several).
 * @returns the contact row, or undefined.
 */
export async function findContactByNumber(ctx: AppContext, companyId: number, e164: string, db: DbOrTx = ctx.db): Promise<Contact | undefined> {
  if (db === ctx.db) return contactsByNumber(ctx).submit({ companyId, number: e164 });
  return contactsRepository.findByNumber(db, companyId, e164);
}

/**
 * For another module's statement (the voice webhook's group-commit insert; docs/architecture.md "The voice webhook's hot path"): a SQL
 * scalar subquery giving the id of the company's oldest contact with that exact E.164 number, or
 * null. `companyId` and `number` are SQL expressions of the embedding statement.
 */
export const contactIdForNumberSql = contactsRepository.contactIdByNumberSql;

const contactReaders = new WeakMap<AppContext, GroupCommit<{ companyId: number; number: string }, Contact | undefined>>();
/**
 * Lookups by number made through the pool (not a transaction) in the same turn of the event loop
 * share ONE statement (`contactsRepository.findByNumbers`; the voice webhook looks up every
 * caller: docs/architecture.md "The voice webhook's hot path"). Up to 4 statements at once, 256 keys each.
 */
function contactsByNumber(ctx: AppContext): GroupCommit<{ companyId: number; number: string }, Contact | undefined> {
  let g = contactReaders.get(ctx);
  if (!g) {
    g = new GroupCommit({
      maxWaitMs: 0,
      maxItems: 256,
      concurrency: 4,
      owner: ctx,
      run: async (keys) => {
        const found = await contactsRepository.findByNumbers(ctx.db, keys);
        return keys.map((k) => found.get(`${k.companyId}:${k.number}`));
      },
    });
    contactReaders.set(ctx, g);
  }
  return g;
}

/** The company's contacts among `ids` (others' ids are ignored), keyed by id. */
export async function getContactsByIds(ctx: AppContext, companyId: number, ids: number[], db: DbOrTx = ctx.db): Promise<Map<number, Contact>> {
  const unique = [...new Set(ids)];
  const rows = await contactsRepository.findByIds(db, companyId, unique);
  return new Map(rows.map((r) => [r.id, r]));
}

/** Ids of the company's contacts whose name contains `text` (case-insensitive), at most `limit` (default 500). */
export async function findContactIdsByName(ctx: AppContext, companyId: number, text: string, limit = 500): Promise<number[]> {
  if (!text.trim()) return [];
  return contactsRepository.idsByName(ctx.db, companyId, text.trim(), limit);
}

/** Splits a full name into first name and the rest. */
function splitName(name: string): { first_name: string; last_name: string } {
  const [first = '', ...rest] = name.trim().split(/\s+/);
  return { first_name: first, last_name: rest.join(' ') };
}

/**
 * Creates a contact. `number` is parsed with the domain's phone rules and stored in E.164.
 * @param tx optional transaction of the caller (the demo seed uses one).
 * @throws ValidationError (422) on `number` when it is not a valid phone number, on `name` when empty.
 */
export async function createContact(
  ctx: AppContext,
  companyId: number,
  input: { name: string; number: string; email?: string | null; company_name?: string | null; notes?: string | null; source?: string },
  tx: DbOrTx = ctx.db,
): Promise<Contact> {
  const name = input.name.trim();
  if (!name) throw fieldError('name', 'The name field is required.');
  const number = parsePhone(input.number);
  if (!number) throw fieldError('number', 'The number must be a valid phone number.');
  return contactsRepository.insert(tx, {
    company_id: companyId,
    name,
    ...splitName(name),
    number,
    email: input.email ?? null,
    company_name: input.company_name ?? null,
    notes: input.notes ?? null,
    ...(input.source ? { source: input.source } : {}),
  });
}

/** Marks a contact (un)subscribed from messages, e.g. after an inbound STOP / START keyword. */
export async function setContactUnsubscribed(ctx: AppContext, companyId: number, contactId: number, unsubscribed: boolean, tx: DbOrTx = ctx.db): Promise<void> {
  await contactsRepository.setUnsubscribed(tx, companyId, contactId, unsubscribed);
}

// ---------------------------------------------------------------------------------------------
// HTTP use cases
// ---------------------------------------------------------------------------------------------

const PLAIN_FIELDS = [
  'company_name',
  'email',
  'address1',
  'address2',
  'city',
  'state',
  'zip',
  'notes',
  'optin_type',
  'optin_source',
  'carrier',
  'gender',
  'age_range',
  'type',
] as const;
const NAME_KEYS =
  /^(name|full_?name|contact_?name|display_?name|customer_?name|fullName|contactName|displayName|customerName|first_?name|last_?name|firstName|lastName|first|last)$/;

/**
 * Column values of a create / update payload. On update only the given fields change; the name is
 * re-derived when any name field is given.
 * @throws ValidationError on `name` (empty), `number` (invalid or taken by another contact).
 */
async function toColumns(ctx: AppContext, db: DbOrTx, companyId: number, body: ContactFields, existing?: ContactRow): Promise<RowUpdate<'contacts'>> {
  const out: RowUpdate<'contacts'> = {};
  const nameGiven = Object.keys(body).some((k) => NAME_KEYS.test(k));
  if (!existing || nameGiven) {
    const first = body.first_name !== undefined ? (body.first_name ?? '') : (existing?.first_name ?? '');
    const last = body.last_name !== undefined ? (body.last_name ?? '') : (existing?.last_name ?? '');
    const derived = deriveContactName({ ...body, first_name: first, last_name: last });
    if (!derived) throw fieldError('name', 'The name field is required.');
    out.name = derived.slice(0, 255);
    if (body.first_name !== undefined || body.last_name !== undefined) {
      out.first_name = first;
      out.last_name = last;
    } else Object.assign(out, splitName(derived));
  }
  if (body.number !== undefined || !existing) {
    if (!body.number) throw fieldError('number', 'The number field is required.');
    const number = parsePhone(body.number);
    if (!number) throw fieldError('number', 'The number must be a valid phone number.');
    const other = await contactsRepository.findByNumber(db, companyId, number);
    if (other && other.id !== existing?.id) throw fieldError('number', 'The number has already been taken.');
    out.number = number;
    out.is_invalid = false;
  }
  for (const f of PLAIN_FIELDS) if (body[f] !== undefined) (out as Record<string, unknown>)[f] = body[f] ?? null;
  if (body.alternative_names !== undefined) out.alternative_names = JSON.stringify(body.alternative_names ?? []);
  if (body.secondary_emails !== undefined) out.secondary_emails = JSON.stringify(body.secondary_emails ?? []);
  if (body.custom !== undefined) out.custom = JSON.stringify({ ...((existing?.custom as object) ?? {}), ...(body.custom ?? {}) });
  if (body.added_at) out.added_at = body.added_at;
  if (body.is_unsubscribed !== undefined) out.is_unsubscribed = body.is_unsubscribed;
  return out;
}

/** Full contact answers with groups, labels and custom-field values. */
async function present(ctx: AppContext, rows: ContactRow[], db: DbOrTx = ctx.db): Promise<ContactOut[]> {
  const ids = rows.map((r) => r.id);
  const [{ groups, labels }, eav] = await Promise.all([membershipsOfContacts(ctx, ids, db), getEavValuesMany(ctx, CONTACT, ids, db)]);
  return rows.map((r) => {
    const values = eav.get(r.id) ?? [];
    return {
      id: r.id,
      company_id: r.company_id,
      name: r.name,
      first_name: r.first_name,
      last_name: r.last_name,
      number: r.number,
      company_name: r.company_name,
      email: r.email,
      address1: r.address1,
      address2: r.address2,
      city: r.city,
      state: r.state,
      zip: r.zip,
      notes: r.notes,
      optin_type: r.optin_type,
      optin_source: r.optin_source,
      alternative_names: (r.alternative_names as string[]) ?? [],
      secondary_emails: (r.secondary_emails as string[]) ?? [],
      carrier: r.carrier,
      gender: r.gender,
      age_range: r.age_range,
      type: r.type,
      added_at: r.added_at.toISOString(),
      source: r.source,
      is_invalid: r.is_invalid,
      is_unsubscribed: r.is_unsubscribed,
      custom: (r.custom as Record<string, unknown>) ?? {},
      groups: groups.get(r.id) ?? [],
      labels: labels.get(r.id) ?? [],
      eavAttributeValues: values,
      eav_attribute_values: values,
      created_at: r.created_at.toISOString(),
      updated_at: r.updated_at.toISOString(),
    };
  });
}

/** The contact list's page meta (spec 001 §3: `current_page`, `total_pages`; plus `total`, `per_page`) from the shared page meta. */
function contactPagination(m: PageMeta): { current_page: number; total_pages: number; total: number; per_page: number } {
  return { current_page: m.current_page, total_pages: m.last_page, total: m.total, per_page: m.per_page };
}

/** `GET /contacts`: one page of the filtered list, newest first, with `meta.pagination`. */
export async function listContacts(ctx: AppContext, userId: number, q: ContactListQuery) {
  const companyId = await resolveCompanyId(ctx, userId, q.company_id);
  const { rows, total } = await contactsRepository.list(ctx.db, companyId, q, q.page, q.per_page);
  const full = await present(ctx, rows);
  return {
    data: full.map((c) => ({
      id: c.id,
      name: c.name,
      number: c.number,
      email: c.email,
      source: c.source,
      is_unsubscribed: c.is_unsubscribed,
      is_invalid: c.is_invalid,
      labels: c.labels,
      groups: c.groups,
      eavAttributeValues: c.eavAttributeValues,
    })),
    meta: { pagination: contactPagination(pageMeta(q.page, q.per_page, total)) },
  };
}

/** Loads a contact the user may see. @throws NotFoundError (404) when missing or in another company. */
async function loadContact(ctx: AppContext, userId: number, id: number, roles?: Role[]): Promise<ContactRow> {
  const companyId = await contactsRepository.companyOf(ctx.db, id);
  if (companyId === undefined) throw new NotFoundError('Contact');
  await deniedAsNotFound(assertCompanyAccess(ctx, userId, companyId, roles), 'Contact');
  // Deleted meanwhile (a concurrent DELETE): absent, not a crash.
  const row = await contactsRepository.findById(ctx.db, companyId, id);
  if (!row) throw new NotFoundError('Contact');
  return row;
}

/** `GET /api/contacts/{id}`: the full contact. @throws NotFoundError (404) when missing or in another company. */
export async function getContact(ctx: AppContext, userId: number, id: number): Promise<ContactOut> {
  return (await present(ctx, [await loadContact(ctx, userId, id)]))[0]!;
}

/** Applies groups, labels and custom-field values of a payload inside `tx`. */
async function applyRelations(ctx: AppContext, tx: DbOrTx, companyId: number, contactId: number, body: ContactFields): Promise<void> {
  const groups = body.groups ? await assertGroupIds(ctx, companyId, body.groups, 'groups', tx) : undefined;
  const labels = body.labels ? await assertLabelIds(ctx, companyId, body.labels, tx) : undefined;
  await setContactMemberships(ctx, companyId, contactId, { groups, labels }, tx);
  const values = body.eavAttributeValues ?? body.eav_attribute_values;
  if (values) await setEavValues(ctx, CONTACT, contactId, companyId, values, tx);
}

// ---------------------------------------------------------------------------------------------
// Domain events (platform/events/contact-events.ts; docs/contacts.md "Domain events"), written in the change's transaction
// ---------------------------------------------------------------------------------------------

/** The facts every contact event carries. */
function contactFacts(r: ContactRow) {
  return {
    companyId: r.company_id,
    contactId: r.id,
    name: r.name,
    number: r.number,
    email: r.email,
    source: r.source,
    isUnsubscribed: r.is_unsubscribed,
  };
}

/** The `contact.created` event of a row just written. */
function createdEvent(r: ContactRow): AnyEvent {
  return { name: 'contact.created', payload: { ...contactFacts(r), createdAt: r.created_at.toISOString() } };
}

/** The `contact.updated` event of a row just written, or none when nothing changed (`changed` empty). */
function updatedEvents(r: ContactRow, changed: string[]): AnyEvent[] {
  return changed.length ? [{ name: 'contact.updated', payload: { ...contactFacts(r), updatedAt: r.updated_at.toISOString(), changedFields: changed } }] : [];
}

/** `contact.deleted` events for deleted ids, 1,000 ids per event. */
function deletedEvents(companyId: number, ids: number[]): AnyEvent[] {
  const out: AnyEvent[] = [];
  for (let i = 0; i < ids.length; i += 1000)
    out.push({ name: 'contact.deleted', payload: { companyId, contactIds: ids.slice(i, i + 1000), deletionId: randomUUID() } });
  return out;
}

/**
 * The spec's field names whose stored value an update changes: the columns of `cols` that differ from `before`
 * (JSON columns compared by their JSON text), plus `groups`, `labels` and `eav_attribute_values` when the payload
 * gives them (sets replaced as given).
 */
function changedFields(before: ContactRow, cols: RowUpdate<'contacts'>, body: ContactFields): string[] {
  const norm = (v: unknown): string => {
    if (v instanceof Date) return v.toISOString();
    if (typeof v === 'string' && /^[[{]/.test(v)) {
      try {
        return JSON.stringify(JSON.parse(v));
      } catch (e) {
        if (e instanceof SyntaxError) return v; // plain text that merely starts with a bracket
        throw e;
      }
    }
    return typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v ?? '');
  };
  const out = Object.entries(cols)
    .filter(([k, v]) => norm(v) !== norm((before as Record<string, unknown>)[k]))
    .map(([k]) => k);
  if (body.groups !== undefined) out.push('groups');
  if (body.labels !== undefined) out.push('labels');
  if (body.eavAttributeValues !== undefined || body.eav_attribute_values !== undefined) out.push('eav_attribute_values');
  return out;
}

/** `POST /contacts`; emits `contact.created` after commit. @throws ValidationError (422) per field; ForbiddenError (403). */
export async function createContactFromApi(ctx: AppContext, userId: number, body: CreateContactBody): Promise<ContactOut> {
  const companyId = await resolveCompanyId(ctx, userId, body.company_id, AGENT_ROLES);
  const { out, emitted } = await ctx.db.transaction().execute(async (tx) => {
    const cols = await toColumns(ctx, tx, companyId, body);
    const inserted = await contactsRepository.insert(tx, { ...cols, company_id: companyId, name: cols.name as string, source: 'Manual' } as never);
    await applyRelations(ctx, tx, companyId, inserted.id, body);
    const row = (await contactsRepository.findById(tx, companyId, inserted.id))!;
    return { out: (await present(ctx, [row], tx))[0]!, emitted: await events.emitMany(tx, [createdEvent(row)]) };
  });
  await events.dispatch(ctx, emitted);
  return out;
}

/** `PATCH /contacts/{id}`: changes only the given fields; emits `contact.updated` after commit when something changed. */
export async function updateContact(ctx: AppContext, userId: number, id: number, body: ContactFields): Promise<ContactOut> {
  const existing = await loadContact(ctx, userId, id, AGENT_ROLES);
  const { out, emitted } = await ctx.db.transaction().execute(async (tx) => {
    const cols = await toColumns(ctx, tx, existing.company_id, body, existing);
    await contactsRepository.update(tx, existing.company_id, id, cols);
    await applyRelations(ctx, tx, existing.company_id, id, body);
    const row = await contactsRepository.findById(tx, existing.company_id, id);
    if (!row) throw new NotFoundError('Contact'); // deleted by a concurrent request
    const changed = changedFields(existing, cols, body);
    return { out: (await present(ctx, [row], tx))[0]!, emitted: await events.emitMany(tx, updatedEvents(row, changed)) };
  });
  await events.dispatch(ctx, emitted);
  return out;
}

/** `DELETE /api/contacts/{id}` (agents): the contact and its custom-field values; emits `contact.deleted`. @throws NotFoundError (404). */
export async function deleteContact(ctx: AppContext, userId: number, id: number): Promise<{ message: string }> {
  const c = await loadContact(ctx, userId, id, AGENT_ROLES);
  const emitted = await ctx.db.transaction().execute(async (tx) => {
    const ids = await contactsRepository.deleteSelected(tx, c.company_id, { contacts: [c.id] });
    await deleteEavValuesOf(ctx, CONTACT, [c.id], tx);
    return events.emitMany(tx, deletedEvents(c.company_id, ids));
  });
  await events.dispatch(ctx, emitted);
  return { message: 'Contact deleted successfully' };
}

/**
 * `PUT /companies/{companyId}/contacts`: each contact is merged into the company's contact with the
 * same number (given fields replace stored ones) or created, then all are added to `groups`.
 * @throws ValidationError on `contacts.{i}.number` / `.name`, `groups`.
 */
export async function upsertContacts(ctx: AppContext, userId: number, companyId: number, body: { contacts: ContactFields[]; groups: number[] }) {
  await assertCompanyAccess(ctx, userId, companyId, AGENT_ROLES);
  const announced: Array<{ id: number; changed: string[] | null }> = [];
  const result = await ctx.db.transaction().execute(async (tx) => {
    const groups = await assertGroupIds(ctx, companyId, body.groups, 'groups', tx);
    const data: Array<{ id: number; number: string | null; merged: boolean }> = [];
    for (const [i, c] of body.contacts.entries()) {
      const number = c.number ? parsePhone(c.number) : null;
      if (!number) throw new ValidationError({ [`contacts.${i}.number`]: ['The number must be a valid phone number.'] });
      const existing = await contactsRepository.findByNumber(tx, companyId, number);
      try {
        if (existing) {
          const cols = await toColumns(ctx, tx, companyId, { ...c, number }, existing);
          await contactsRepository.update(tx, companyId, existing.id, cols);
          await applyRelations(ctx, tx, companyId, existing.id, { ...c, groups: undefined });
          data.push({ id: existing.id, number, merged: true });
          announced.push({ id: existing.id, changed: changedFields(existing, cols, { ...c, groups: undefined }) });
        } else {
          const cols = await toColumns(ctx, tx, companyId, { ...c, number });
          const row = await contactsRepository.insert(tx, { ...cols, company_id: companyId, name: cols.name as string } as never);
          await applyRelations(ctx, tx, companyId, row.id, { ...c, groups: undefined });
          data.push({ id: row.id, number, merged: false });
          announced.push({ id: row.id, changed: null });
        }
      } catch (e) {
        if (e instanceof ValidationError && e.errors)
          throw new ValidationError(Object.fromEntries(Object.entries(e.errors).map(([k, v]) => [`contacts.${i}.${k}`, v])));
        throw e;
      }
    }
    await addContactsToGroups(
      ctx,
      groups,
      data.map((d) => d.id),
      tx,
    );
    // `contact.created` for the new ones, `contact.updated` for merges that changed something (dispatched after commit).
    const rows = await getContactsByIds(
      ctx,
      companyId,
      announced.map((a) => a.id),
      tx,
    );
    const list = announced.flatMap((a) => {
      const row = rows.get(a.id);
      if (!row) return [];
      return a.changed === null ? [createdEvent(row)] : updatedEvents(row, a.changed);
    });
    return { data, inserted: data.filter((d) => !d.merged).length, merged: data.filter((d) => d.merged).length, emitted: await events.emitMany(tx, list) };
  });
  await events.dispatch(ctx, result.emitted);
  return { data: result.data, inserted: result.inserted, merged: result.merged };
}

/** `POST /companies/{companyId}/contacts/bulkDestroy` over ids or all + filters (every page). */
export async function bulkDestroyContacts(
  ctx: AppContext,
  userId: number,
  companyId: number,
  selection: BulkSelection,
): Promise<{ message: string; count: number }> {
  await assertCompanyAccess(ctx, userId, companyId, AGENT_ROLES);
  const { ids, emitted } = await ctx.db.transaction().execute(async (tx) => {
    const deleted = await contactsRepository.deleteSelected(tx, companyId, selection as ContactSelectionInput);
    for (let i = 0; i < deleted.length; i += 10_000) await deleteEavValuesOf(ctx, CONTACT, deleted.slice(i, i + 10_000), tx);
    return { ids: deleted, emitted: await events.emitMany(tx, deletedEvents(companyId, deleted)) };
  });
  await events.dispatch(ctx, emitted);
  return { message: 'Contacts deleted successfully', count: ids.length };
}

const EXPORT_COLUMNS = [
  'id',
  'name',
  'first_name',
  'last_name',
  'number',
  'email',
  'company_name',
  'address1',
  'address2',
  'city',
  'state',
  'zip',
  'notes',
  'optin_type',
  'optin_source',
  'carrier',
  'gender',
  'age_range',
  'type',
  'source',
  'is_unsubscribed',
  'is_invalid',
  'groups',
  'labels',
  'added_at',
] as const;

/**
 * `POST /companies/{companyId}/contacts/bulkExport`: writes the selected contacts (all pages) as a
 * CSV file (platform/csv.ts: formula cells neutralised, docs/contacts.md "Exports and formulas")
 * to the blob store under an unguessable key, served to the company's users. @returns `{url, count}`.
 */
export async function bulkExportContacts(
  ctx: AppContext,
  userId: number,
  companyId: number,
  selection: BulkSelection,
): Promise<{ url: string; count: number }> {
  await assertCompanyAccess(ctx, userId, companyId);
  const parts: string[] = [toCsv([[...EXPORT_COLUMNS]]) + '\r\n'];
  let after = 0;
  let count = 0;
  for (;;) {
    const rows = await contactsRepository.selectedPage(ctx.db, companyId, selection as ContactSelectionInput, after, 5000);
    if (rows.length === 0) break;
    const { groups, labels } = await membershipsOfContacts(
      ctx,
      rows.map((r) => r.id),
    );
    const data = rows.map((r) =>
      EXPORT_COLUMNS.map((c) => {
        if (c === 'groups') return (groups.get(r.id) ?? []).map((g) => g.name).join('; ');
        if (c === 'labels') return (labels.get(r.id) ?? []).map((l) => l.label).join('; ');
        if (c === 'added_at') return r.added_at.toISOString();
        const v = r[c];
        return v === null || v === undefined ? '' : String(v);
      }),
    );
    parts.push(toCsv(data) + '\r\n');
    count += rows.length;
    after = rows[rows.length - 1]!.id;
  }
  const key = `exports/contacts/${companyId}/${randomUUID()}.csv`;
  await ctx.blobs.put(key, Buffer.from(parts.join(''), 'utf8'));
  return { url: ctx.blobs.url(key), count };
}
