/**
 * Domain events of the contacts family (emitted by modules/contacts after commit; others only
 * subscribe, e.g. the webhooks module turns them into `contact.created`, `contact.updated` and
 * `contact.deleted` deliveries, docs/api-and-webhooks.md "Event types"). Each entry: event name → zod
 * schema of its payload. See `platform/events/index.ts` and docs/contacts.md "Domain events".
 */
import { z } from 'zod';

const id = z.number().int();
const text = z.string().nullable();

/** What a subscriber learns about a contact without reading it again (spec 001 §3 "Contact" field names). */
const contactFacts = {
  companyId: id,
  contactId: id,
  name: z.string(),
  /** E.164 (stored parsed). */
  number: text,
  email: text,
  /** `Manual`, `Import`, `keyword`, … (spec 001 §3 `source`). */
  source: text,
  isUnsubscribed: z.boolean(),
};

/** The contacts family: event name → payload schema. */
export const CONTACT_EVENTS = {
  /** A contact was created one by one (the API, the contact form, an upsert that found no contact with the number). */
  'contact.created': z.object({ ...contactFacts, createdAt: z.string() }),
  /**
   * A contact's fields, groups, labels or custom-field values changed (`PATCH /contacts/{id}`, an upsert that merged
   * into it). `changedFields`: the spec's field names whose value changed (`groups`, `labels`, `eav_attribute_values`
   * when given); `updatedAt` (ISO, UTC) identifies the change.
   */
  'contact.updated': z.object({ ...contactFacts, updatedAt: z.string(), changedFields: z.array(z.string()) }),
  /**
   * Contacts were deleted (one, or a bulk delete: at most 1,000 ids per event, `deletionId` naming the event; a bulk
   * delete of more emits several).
   */
  'contact.deleted': z.object({ companyId: id, contactIds: z.array(id).min(1).max(1000), deletionId: z.string() }),
} as const;
