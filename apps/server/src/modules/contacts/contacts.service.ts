/**
 * Contacts, minimal cut (spec 001 "Contacts"; full CRUD, groups and imports come in a later
 * issue): look a contact up by number for the inbox, create one (demo seed), and the
 * subscription flag messaging honours.
 */
import { parsePhone } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { fieldError } from '../../platform/http/errors.js';
import { contactsRepository, type ContactRow } from './contacts.repository.js';

export type Contact = ContactRow;

/**
 * The company's contact whose number is `e164` (exact E.164 match; the oldest when several).
 * @returns the contact row, or undefined.
 */
export async function findContactByNumber(ctx: AppContext, companyId: number, e164: string, db: DbOrTx = ctx.db): Promise<Contact | undefined> {
  return contactsRepository.findByNumber(db, companyId, e164);
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
