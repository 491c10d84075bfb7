/**
 * Contacts, groups, labels, imports and custom fields (spec 001 §3 "Contact", "Contact group",
 * "Contact label", "Custom field (EAV attribute)", "Batch progress"; §5 bulk selections and the
 * import file rule; §7 "Contacts", "Groups and labels", "Custom fields").
 */
import { AGE_RANGES, CONTACT_GENDERS, CONTACT_TYPES, deriveContactName, parsePhone } from '@switchboard/domain';
import { z } from 'zod';
import { BoolFlag, Id, Timestamp } from './common.js';

/** Contact source labels (spec 001 §3). */
export const CONTACT_SOURCES = ['Manual', 'Import', 'keyword', 'Migration'] as const;

/** Custom field value types. */
export const EAV_ATTRIBUTE_TYPES = ['text', 'number', 'date', 'select', 'multiselect', 'boolean'] as const;

/** Live events on `company.{companyId}` during an import (spec 001 §7 "Live channels and events"). */
export const CONTACT_IMPORT_PROGRESS = 'contact import progress';
export const CONTACT_IMPORT_COMPLETED = 'contact import completed';
/** Payload of `contact import progress`: percent 0-100. */
export const ContactImportProgressEvent = z.object({ batchId: z.string(), progress: z.number() });
/** Payload of `contact import completed`; `error` is the spec's failure message when the import failed. */
export const ContactImportCompletedEvent = z.object({
  batchId: z.string(),
  finishedAt: Timestamp,
  inserted: z.number().int(),
  merged: z.number().int(),
  invalid: z.number().int(),
  failed: z.boolean(),
  error: z.string().nullable(),
  /** Duplicates skipped and rows read: `inserted + merged + skipped + invalid = total`. */
  skipped: z.number().int(),
  total: z.number().int(),
});
export type ContactImportCompletedEvent = z.infer<typeof ContactImportCompletedEvent>;

/** One custom-field value on an entity (`value` as typed by the attribute; null clears it). */
export const EavAttributeValue = z.object({ attribute_id: Id, value: z.unknown() });
export const EavAttributeValueOut = z.object({ attribute_id: z.number().int(), value: z.unknown(), name: z.string(), type: z.string() });
export type EavAttributeValueOut = z.infer<typeof EavAttributeValueOut>;

const optText = z.string().trim().max(255).nullish();

/**
 * Writable contact fields. The name is taken from `name` or any name variant (`full_name`,
 * `fullName`, `contact_name`, ...), otherwise from `first_name` + `last_name` (domain `deriveContactName`).
 */
export const ContactFields = z.looseObject({
  name: z.string().trim().max(255).nullish(),
  first_name: optText,
  last_name: optText,
  number: z.string().trim().max(64).nullish(),
  company_name: optText,
  email: z
    .email()
    .max(255)
    .nullish()
    .or(z.literal('').transform(() => null)),
  address1: optText,
  address2: optText,
  city: optText,
  state: optText,
  zip: z.string().trim().max(32).nullish(),
  notes: z.string().max(10_000).nullish(),
  optin_type: optText,
  optin_source: optText,
  alternative_names: z.array(z.string().trim().max(255)).max(50).nullish(),
  secondary_emails: z.array(z.email().max(255)).max(50).nullish(),
  carrier: optText,
  gender: z.enum(CONTACT_GENDERS).nullish(),
  age_range: z.enum(AGE_RANGES).nullish(),
  type: z.enum(CONTACT_TYPES).nullish(),
  added_at: z.iso.datetime({ offset: true }).nullish(),
  is_unsubscribed: z.boolean().optional(),
  custom: z
    .object({ country: z.string().max(255).nullish(), title: z.string().max(255).nullish() })
    .partial()
    .nullish(),
  groups: z.array(Id).optional(),
  labels: z.array(Id).optional(),
  eavAttributeValues: z.array(EavAttributeValue).optional(),
  eav_attribute_values: z.array(EavAttributeValue).optional(),
});
export type ContactFields = z.infer<typeof ContactFields>;

/** Messages of the contact rules the server checks (contacts.service `toColumns`) and the form shows. */
export const CONTACT_MESSAGES = {
  nameRequired: 'The name field is required.',
  numberRequired: 'The number field is required.',
  numberInvalid: 'The number must be a valid phone number.',
} as const;

/**
 * The contact create/edit form's rules, checked in the browser before sending and by the server
 * with the same messages: a name (`name`, or first and/or last name: `deriveContactName`) and a
 * valid phone number (`parsePhone`), plus every field rule of `ContactFields`. Errors are keyed by
 * field (`name`, `number`, `email`, `secondary_emails.0`, ...).
 */
export const ContactFormSchema = ContactFields.superRefine((body, ctx) => {
  if (!deriveContactName(body as Record<string, unknown>)) ctx.addIssue({ code: 'custom', path: ['name'], message: CONTACT_MESSAGES.nameRequired });
  const number = typeof body.number === 'string' ? body.number.trim() : '';
  if (!number) ctx.addIssue({ code: 'custom', path: ['number'], message: CONTACT_MESSAGES.numberRequired });
  else if (!parsePhone(number)) ctx.addIssue({ code: 'custom', path: ['number'], message: CONTACT_MESSAGES.numberInvalid });
});
/** `POST /contacts` body: the fields plus `company_id` (the caller's company when omitted and they have one). */
export const CreateContactBody = ContactFields.extend({ company_id: Id.optional() });
export type CreateContactBody = z.infer<typeof CreateContactBody>;

export const GroupRef = z.object({ id: z.number().int(), name: z.string() });
export const LabelRef = z.object({ id: z.number().int(), label: z.string() });

/** A contact in full (detail, create and update answers). */
export const Contact = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  number: z.string().nullable(),
  company_name: z.string().nullable(),
  email: z.string().nullable(),
  address1: z.string().nullable(),
  address2: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zip: z.string().nullable(),
  notes: z.string().nullable(),
  optin_type: z.string().nullable(),
  optin_source: z.string().nullable(),
  alternative_names: z.array(z.string()),
  secondary_emails: z.array(z.string()),
  carrier: z.string().nullable(),
  gender: z.string().nullable(),
  age_range: z.string().nullable(),
  type: z.string().nullable(),
  added_at: Timestamp,
  source: z.string(),
  is_invalid: z.boolean(),
  is_unsubscribed: z.boolean(),
  custom: z.record(z.string(), z.unknown()),
  groups: z.array(GroupRef),
  labels: z.array(LabelRef),
  eavAttributeValues: z.array(EavAttributeValueOut),
  eav_attribute_values: z.array(EavAttributeValueOut),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Contact = z.infer<typeof Contact>;

/** A contact list row (spec 001 §3): id, name, number, is_unsubscribed, labels, groups, eavAttributeValues (+ a few display fields). */
export const ContactListItem = z.object({
  id: z.number().int(),
  name: z.string(),
  number: z.string().nullable(),
  email: z.string().nullable(),
  source: z.string(),
  is_unsubscribed: z.boolean(),
  is_invalid: z.boolean(),
  labels: z.array(LabelRef),
  groups: z.array(GroupRef),
  eavAttributeValues: z.array(EavAttributeValueOut),
});

/** Filters shared by the list and every "all + filters" bulk action (spec 001 §5). */
export const ContactFilters = z.object({
  search: z.string().trim().max(255).optional(),
  group_id: Id.optional(),
  label_id: Id.optional(),
  is_unsubscribed: BoolFlag.optional(),
  is_invalid: BoolFlag.optional(),
  source: z.enum(CONTACT_SOURCES).optional(),
});
export type ContactFilters = z.infer<typeof ContactFilters>;

export const ContactListQuery = ContactFilters.extend({
  company_id: Id.optional(),
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(500).default(25),
});
export type ContactListQuery = z.infer<typeof ContactListQuery>;

/** Page meta of the contact list (spec 001 §3: current_page, total_pages; plus total and per_page). */
export const ContactPagination = z.object({
  current_page: z.number().int(),
  total_pages: z.number().int(),
  total: z.number().int(),
  per_page: z.number().int(),
});
export const ContactList = z.object({ data: z.array(ContactListItem), meta: z.object({ pagination: ContactPagination }) });

/**
 * A bulk selection (spec 001 §5): `{contacts: [ids]}` or `{all: true, filters: {...}}` (every
 * contact matching the filters, across every page).
 */
export const BulkSelection = z
  .object({
    contacts: z.array(Id).max(100_000).optional(),
    all: BoolFlag.optional(),
    filters: ContactFilters.optional(),
  })
  .refine((b) => b.all === true || (b.contacts !== undefined && b.contacts.length > 0), { message: 'Choose contacts or all.', path: ['contacts'] });
export type BulkSelection = z.infer<typeof BulkSelection>;
export const BulkResult = z.object({ message: z.string(), count: z.number().int() });

/** `PUT /companies/{companyId}/contacts`: upsert by number into groups. */
export const UpsertContactsBody = z.object({ contacts: z.array(ContactFields).min(1).max(5000), groups: z.array(Id).default([]) });
export const UpsertContactsResult = z.object({
  data: z.array(z.object({ id: z.number().int(), number: z.string().nullable(), merged: z.boolean() })),
  inserted: z.number().int(),
  merged: z.number().int(),
});

export const ExportResult = z.object({ url: z.string(), count: z.number().int() });

/** Batch progress (spec 001 §3): `progress` 0-100 and `finishedAt`, plus our counters. */
export const BatchProgress = z.object({
  progress: z.number(),
  finishedAt: Timestamp.nullable(),
  status: z.string(),
  inserted: z.number().int(),
  merged: z.number().int(),
  invalid: z.number().int(),
  error: z.string().nullable(),
  /** Duplicates skipped; `inserted + merged + skipped + invalid = total` rows (docs/contacts.md "Import"). */
  skipped: z.number().int(),
  total: z.number().int(),
  duplicates: z.string(),
  /** The per-row report (CSV) once finished, else null. */
  report_url: z.string().nullable(),
});
export const ContactBatchParams = z.object({ companyId: Id, batchId: z.uuid() });
/** What an imported row with the number of an existing contact does (default skip). */
export const IMPORT_DUPLICATE_CHOICES = ['skip', 'fill', 'overwrite'] as const;
export type ImportDuplicateChoice = (typeof IMPORT_DUPLICATE_CHOICES)[number];

const ColumnIndex = z.number().int().min(0).max(10_000);
const ColumnIndexes = z.union([ColumnIndex, z.array(ColumnIndex).max(100)]);
/**
 * Import column mapping: 0-based column index per contact field. `number`, `email` and `labels` take
 * one column or several (the first valid number wins, a mobile one first; see docs/contacts.md).
 */
export const ImportMapping = z.object({
  name: z.union([z.number().int().min(0), z.object({ first: z.number().int().min(0).optional(), last: z.number().int().min(0).optional() })]).optional(),
  first_name: z.number().int().min(0).optional(),
  last_name: z.number().int().min(0).optional(),
  number: ColumnIndexes.optional(),
  email: ColumnIndexes.optional(),
  labels: ColumnIndexes.optional(),
  company_name: z.number().int().min(0).optional(),
  address1: z.number().int().min(0).optional(),
  address2: z.number().int().min(0).optional(),
  city: z.number().int().min(0).optional(),
  state: z.number().int().min(0).optional(),
  zip: z.number().int().min(0).optional(),
  notes: z.number().int().min(0).optional(),
  gender: z.number().int().min(0).optional(),
  age_range: z.number().int().min(0).optional(),
  type: z.number().int().min(0).optional(),
});
export type ImportMapping = z.infer<typeof ImportMapping>;
export const ImportStarted = z.object({ batchId: z.string() });
export const ImportPreview = z.object({
  headers: z.array(z.string()),
  rows: z.array(z.array(z.string())),
  mapping: ImportMapping,
  error: z.string().nullable(),
});
/** Job payload of `contacts.import`. */
export const ContactImportJob = z.object({ batchId: z.string() });

// ---- groups and labels ----
export const ContactGroup = z.object({
  id: z.number().int(),
  name: z.string(),
  company_id: z.number().int(),
  created_at: Timestamp,
  updated_at: Timestamp,
  deleted_at: Timestamp.nullable(),
  contact_count: z.number().int(),
  active_count: z.number().int(),
  invalid_count: z.number().int(),
  unsubscriber_count: z.number().int(),
  contacts_link: z.string(),
  virtual: z.boolean(),
  user_id: z.number().int().nullable(),
  link: z.string().nullable(),
});
export const GroupListQuery = z.object({ company_id: Id.optional(), search: z.string().trim().max(255).optional() });
export const GroupList = z.object({ data: z.array(ContactGroup) });
export const CreateGroupBody = z.object({
  company_id: Id.optional(),
  name: z.string().trim().min(1, 'The name field is required.').max(255),
  link: z.string().max(2000).nullish(),
});
export const UpdateGroupBody = z.object({
  name: z.string().trim().min(1, 'The name field is required.').max(255).optional(),
  link: z.string().max(2000).nullish(),
});
export const GroupAllContactsParams = z.object({ companyId: Id, groupId: Id });
export const GroupAllContactsBody = z.object({ filters: ContactFilters.optional() });
export const ContactLabel = z.object({ id: z.number().int(), label: z.string() });
export const LabelList = z.object({ data: z.array(ContactLabel) });
export const CreateLabelBody = z.object({ label: z.string().trim().min(1, 'The label field is required.').max(100) });
export const LabelParams = z.object({ id: Id, labelId: Id });

// ---- custom fields ----
export const EavChoice = z.object({
  id: z.number().int().optional(),
  value: z.string().trim().min(1).max(255),
  sort_order: z.number().int().default(0),
  description: z.string().max(1000).nullish(),
});
export const EavEntityTypeList = z.object({ data: z.array(z.object({ id: z.number().int(), name: z.string() })) });
export const EavAttribute = z.object({
  id: z.number().int(),
  entityType: z.number().int(),
  name: z.string(),
  type: z.enum(EAV_ATTRIBUTE_TYPES),
  defaultValue: z.unknown(),
  choices: z.array(z.object({ id: z.number().int(), value: z.string(), sort_order: z.number().int(), description: z.string().nullable() })),
  companyId: z.number().int().nullable(),
  businessUnitId: z.number().int().nullable(),
  parentId: z.number().int().nullable(),
  isOverridden: z.boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type EavAttribute = z.infer<typeof EavAttribute>;
export const EavAttributeQuery = z.object({
  company_id: Id.optional(),
  companyId: Id.optional(),
  businessUnitId: Id.optional(),
  business_unit_id: Id.optional(),
  entity_type: z.coerce.number().int().min(1).max(7).optional(),
  entityType: z.coerce.number().int().min(1).max(7).optional(),
});
export const EavAttributeList = z.object({ data: z.array(EavAttribute) });
export const EavTypeParams = z.object({ type: z.coerce.number().int().min(1).max(7) });
export const EavTypeIdParams = z.object({ type: z.coerce.number().int().min(1).max(7), id: Id });
/** Create body; `parentId` + `companyId` creates a company override of a business-unit attribute. */
export const EavAttributeBody = z.object({
  name: z.string().trim().min(1, 'The name field is required.').max(255),
  type: z.enum(EAV_ATTRIBUTE_TYPES),
  defaultValue: z.unknown().optional(),
  choices: z.array(EavChoice).max(500).default([]),
  companyId: Id.optional(),
  businessUnitId: Id.optional(),
  parentId: Id.optional(),
});
export const EavAttributeUpdateBody = EavAttributeBody.omit({ companyId: true, businessUnitId: true, parentId: true })
  .partial()
  .extend({ choices: z.array(EavChoice).max(500).optional() });
export const EavAttributeResult = z.object({ message: z.string(), data: EavAttribute });
export const EavCountStats = z.object({
  data: z.object({
    total: z.number().int(),
    entities: z.number().int(),
    companies: z.number().int(),
    perValue: z.array(z.object({ value: z.unknown(), count: z.number().int() })),
  }),
});
