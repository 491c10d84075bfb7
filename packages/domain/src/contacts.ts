/**
 * Contact rules (spec 001 §3 "Contact", "Custom field (EAV attribute)"; §5 "A contact import file (CSV
 * or XLSX) must have valid name and number columns"): enumerations, the derived name, import column
 * detection and EAV entity types.
 */
import { INVALID_CONTACT_FILE } from './messages.js';

/** Contact genders (spec 001 §3). */
export const CONTACT_GENDERS = ['Male', 'Female', 'Other'] as const;
/** A contact gender. */
export type ContactGender = (typeof CONTACT_GENDERS)[number];

/** Contact types (spec 001 §3). */
export const CONTACT_TYPES = ['Person', 'Business', 'Other'] as const;
/** A contact type. */
export type ContactType = (typeof CONTACT_TYPES)[number];

/** Age range buckets (spec 001 §3): 1-5, then steps of five up to 61-65, then 65+. */
export const AGE_RANGES = ['1-5', '6-10', '11-15', '16-20', '21-25', '26-30', '31-35', '36-40', '41-45', '46-50', '51-55', '56-60', '61-65', '65+'] as const;
/** An age range bucket. */
export type AgeRange = (typeof AGE_RANGES)[number];

/** EAV (custom field) entity types with their ids (spec 001 §3). */
export const EAV_ENTITY_TYPES = {
  Number: 1,
  Company: 2,
  TrackingPool: 3,
  Organization: 4,
  User: 5,
  Call: 6,
  Contact: 7,
} as const;
/** An EAV entity type name. */
export type EavEntityType = keyof typeof EAV_ENTITY_TYPES;

/** Header/key spelling reduced to lowercase letters and digits ("Full_Name" → "fullname"). */
function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Recognised spellings (after {@link normalizeKey}) of import columns and record keys. */
export const CONTACT_COLUMN_ALIASES = {
  name: ['name', 'fullname', 'contactname', 'displayname', 'customername', 'contact'],
  first_name: ['firstname', 'first', 'givenname', 'fname', 'forename'],
  last_name: ['lastname', 'last', 'surname', 'familyname', 'lname'],
  number: [
    'number',
    'phone',
    'phonenumber',
    'phoneno',
    'mobile',
    'mobilenumber',
    'mobilephone',
    'cell',
    'cellphone',
    'cellnumber',
    'telephone',
    'tel',
    'contactnumber',
    'msisdn',
  ],
  email: ['email', 'emailaddress', 'mail', 'emailid'],
  company_name: ['company', 'companyname', 'business', 'businessname', 'organization', 'organisation'],
  address1: ['address', 'address1', 'addressline1', 'street', 'streetaddress'],
  address2: ['address2', 'addressline2'],
  city: ['city', 'town'],
  state: ['state', 'province', 'region'],
  zip: ['zip', 'zipcode', 'postalcode', 'postcode'],
  notes: ['notes', 'note', 'comments', 'comment'],
  gender: ['gender', 'sex'],
  age_range: ['agerange', 'age'],
  type: ['type', 'contacttype'],
} as const;

/** A contact field an import column can fill. */
export type ContactColumnField = keyof typeof CONTACT_COLUMN_ALIASES;

function stringValue(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

function findValue(record: Readonly<Record<string, unknown>>, aliases: readonly string[]): string {
  for (const alias of aliases) {
    for (const [key, value] of Object.entries(record)) {
      if (normalizeKey(key) === alias) {
        const text = stringValue(value);
        if (text !== '') return text;
      }
    }
  }
  return '';
}

/**
 * The name of a contact record (spec 001 §3 "derived from several name-field variants, or from first
 * plus last name"). Keys match ignoring case, spaces, underscores and dashes, so "name", "Name",
 * "full_name", "fullName", "contact_name", "display_name" all count; the first non-blank variant wins
 * (in {@link CONTACT_COLUMN_ALIASES} order). Otherwise first and last name ("first_name"/"firstname"/
 * "first", "last_name"/"lastname"/"last", ...) joined by a space.
 *
 * @param record an imported row or API payload
 * @returns the trimmed name, or "" when none is present
 */
export function deriveContactName(record: Readonly<Record<string, unknown>>): string {
  const name = findValue(record, CONTACT_COLUMN_ALIASES.name);
  if (name !== '') return name.replace(/\s+/g, ' ');
  const first = findValue(record, CONTACT_COLUMN_ALIASES.first_name);
  const last = findValue(record, CONTACT_COLUMN_ALIASES.last_name);
  return [first, last].filter(Boolean).join(' ').replace(/\s+/g, ' ');
}

/** Column indexes detected in an import file's header row. `name` is one column or first/last columns. */
export type ImportColumns = {
  name?: number | { first?: number; last?: number };
} & Partial<Record<Exclude<ContactColumnField, 'name' | 'first_name' | 'last_name'>, number>>;

/**
 * Detects which columns of an import file hold which contact fields, from its headers (spec 001 §5).
 * Headers match the spellings of {@link CONTACT_COLUMN_ALIASES} ignoring case, spaces and punctuation;
 * the leftmost matching column wins. A full-name column is preferred over first/last columns.
 *
 * @param headers the header row
 * @returns field → 0-based column index, e.g. `{ name: 0, number: 2 }` or `{ name: { first: 0, last: 1 }, number: 2 }`
 */
export function detectImportColumns(headers: ReadonlyArray<string | null | undefined>): ImportColumns {
  const normalized = headers.map((header) => normalizeKey(header ?? ''));
  const indexOf = (aliases: readonly string[]): number | undefined => {
    const index = normalized.findIndex((header) => aliases.includes(header));
    return index === -1 ? undefined : index;
  };
  const columns: ImportColumns = {};
  const name = indexOf(CONTACT_COLUMN_ALIASES.name);
  if (name !== undefined) columns.name = name;
  else {
    const first = indexOf(CONTACT_COLUMN_ALIASES.first_name);
    const last = indexOf(CONTACT_COLUMN_ALIASES.last_name);
    if (first !== undefined || last !== undefined) {
      columns.name = {};
      if (first !== undefined) columns.name.first = first;
      if (last !== undefined) columns.name.last = last;
    }
  }
  const used = new Set(typeof columns.name === 'object' ? Object.values(columns.name) : [columns.name]);
  for (const field of Object.keys(CONTACT_COLUMN_ALIASES) as ContactColumnField[]) {
    if (field === 'name' || field === 'first_name' || field === 'last_name') continue;
    const index = indexOf(CONTACT_COLUMN_ALIASES[field]);
    if (index !== undefined && !used.has(index)) {
      columns[field] = index;
      used.add(index);
    }
  }
  return columns;
}

/**
 * The invalid-file error of a contact import (spec 001 §5, §8): a name column (full, or first and/or
 * last) and a number column are required.
 *
 * @param columns detected or user-mapped columns
 * @returns `INVALID_CONTACT_FILE` from messages.ts, or `null` when the columns are valid
 */
export function importColumnsError(columns: ImportColumns): string | null {
  return columns.name === undefined || columns.number === undefined ? INVALID_CONTACT_FILE : null;
}
