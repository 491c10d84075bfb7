/**
 * Contact import column detection for the standard exports (docs/contacts.md "Import"; spec 001 §5
 * "A contact import file (CSV or XLSX) must have valid name and number columns"):
 * Google Contacts (`Name`/`Given Name`/`Family Name` or `First Name`/`Last Name`, `Phone N - Type|Label`
 * + `Phone N - Value`, `E-mail N - Value`, `Organization 1 - Name`, `Notes`, `Group Membership`/`Labels`),
 * Outlook (`First Name`, `Last Name`, `Mobile Phone`, `Business Phone`, `Home Phone`, `E-mail Address`,
 * `Company`, `Notes`, `Categories`) and plain files (the spellings of {@link CONTACT_COLUMN_ALIASES}).
 * vCards are turned into rows with Google's newer headers by the server, so they are detected here too.
 */
import { CONTACT_COLUMN_ALIASES } from './contacts.js';

/** Single-column contact fields an import can fill (besides name, numbers, e-mails and labels). */
export const IMPORT_SINGLE_FIELDS = ['company_name', 'address1', 'address2', 'city', 'state', 'zip', 'notes', 'gender', 'age_range', 'type'] as const;
export type ImportSingleField = (typeof IMPORT_SINGLE_FIELDS)[number];

/**
 * Which columns (0-based) fill which field. `number`, `email` and `labels` may take several columns:
 * the row's number is the first valid one (a mobile one first, see {@link pickRowNumber}); the first
 * e-mail is kept; all labels are kept. `name` is a full-name column; `first_name`/`last_name` fill in
 * when the full name is blank.
 */
export type ContactImportMapping = {
  name?: number;
  first_name?: number;
  last_name?: number;
  number?: number[];
  email?: number[];
  labels?: number[];
} & Partial<Record<ImportSingleField, number>>;

/** Google's separator between several values in one cell ("+1 555 0100 ::: +1 555 0101"). */
export const MULTI_VALUE_SEPARATOR = ':::';

const norm = (h: string | null | undefined) => (h ?? '').toLowerCase().replace(/[^a-z0-9]/g, '');

/** Outlook and similar phone headers, most useful (mobile) first. */
const PHONE_HEADERS = [
  'mobilephone',
  'cellphone',
  'mobile',
  'primaryphone',
  'businessphone',
  'businessphone2',
  'homephone',
  'homephone2',
  'otherphone',
  'companymainphone',
  'carphone',
  'assistantsphone',
  'radiophone',
  'callback',
];
const EMAIL_HEADERS = ['emailaddress', 'email2address', 'email3address', 'emailaddress2', 'emailaddress3'];
const LABEL_HEADERS = ['groupmembership', 'labels', 'categories', 'tags', 'groups'];
/** Extra spellings of single fields in Google/Outlook exports. */
const EXTRA_SINGLE: Record<ImportSingleField, string[]> = {
  company_name: ['organization1name', 'organizationname', 'organization'],
  address1: ['address1street', 'homestreet', 'businessstreet', 'otherstreet'],
  address2: ['address1extendedaddress', 'homestreet2', 'businessstreet2'],
  city: ['address1city', 'homecity', 'businesscity', 'othercity'],
  state: ['address1region', 'homestate', 'businessstate', 'otherstate'],
  zip: ['address1postalcode', 'homepostalcode', 'businesspostalcode', 'otherpostalcode'],
  notes: [],
  gender: [],
  age_range: ['agerange'],
  type: [],
};

/**
 * Detects the mapping of an import file from its header row.
 * @param headers the header row (as read; any spelling, case and punctuation)
 * @returns the mapping; `number`/`email`/`labels` list columns in order of preference
 */
export function detectContactImportMapping(headers: ReadonlyArray<string | null | undefined>): ContactImportMapping {
  const keys = headers.map(norm);
  const used = new Set<number>();
  const first = (aliases: readonly string[]): number | undefined => {
    const i = keys.findIndex((k, idx) => !used.has(idx) && aliases.includes(k));
    if (i === -1) return undefined;
    used.add(i);
    return i;
  };
  const m: ContactImportMapping = {};
  const name = first(CONTACT_COLUMN_ALIASES.name);
  if (name !== undefined) m.name = name;
  const given = first([...CONTACT_COLUMN_ALIASES.first_name]);
  if (given !== undefined) m.first_name = given;
  const family = first([...CONTACT_COLUMN_ALIASES.last_name]);
  if (family !== undefined) m.last_name = family;

  // Numbers: Google's "Phone N - Value" in N order, then Outlook's named phones, then plain spellings.
  const numbers: number[] = [];
  const googlePhones = keys
    .map((k, i) => ({ i, n: /^phone(\d+)value$/.exec(k)?.[1] }))
    .filter((x) => x.n !== undefined)
    .sort((a, b) => Number(a.n) - Number(b.n));
  for (const p of googlePhones) {
    numbers.push(p.i);
    used.add(p.i);
  }
  for (const h of PHONE_HEADERS)
    keys.forEach((k, i) => {
      if (k === h && !used.has(i)) {
        numbers.push(i);
        used.add(i);
      }
    });
  keys.forEach((k, i) => {
    if (!used.has(i) && (CONTACT_COLUMN_ALIASES.number as readonly string[]).includes(k)) {
      numbers.push(i);
      used.add(i);
    }
  });
  if (numbers.length) m.number = numbers;

  const emails: number[] = [];
  const googleMails = keys
    .map((k, i) => ({ i, n: /^e?mail(\d+)value$/.exec(k)?.[1] }))
    .filter((x) => x.n !== undefined)
    .sort((a, b) => Number(a.n) - Number(b.n));
  for (const e of googleMails) {
    emails.push(e.i);
    used.add(e.i);
  }
  keys.forEach((k, i) => {
    if (!used.has(i) && (EMAIL_HEADERS.includes(k) || (CONTACT_COLUMN_ALIASES.email as readonly string[]).includes(k))) {
      emails.push(i);
      used.add(i);
    }
  });
  if (emails.length) m.email = emails;

  const labels: number[] = [];
  keys.forEach((k, i) => {
    if (!used.has(i) && LABEL_HEADERS.includes(k)) {
      labels.push(i);
      used.add(i);
    }
  });
  if (labels.length) m.labels = labels;

  for (const f of IMPORT_SINGLE_FIELDS) {
    const aliases = [...((CONTACT_COLUMN_ALIASES as Record<string, readonly string[]>)[f] ?? []), ...EXTRA_SINGLE[f]];
    const i = first(aliases);
    if (i !== undefined) m[f] = i;
  }
  return m;
}

/**
 * The column holding the label of a phone column: Google's "Phone N - Type" / "Phone N - Label"
 * beside "Phone N - Value"; none for a named column such as Outlook's "Mobile Phone" (its header is the label).
 */
export function phoneLabelColumn(headers: ReadonlyArray<string | null | undefined>, valueColumn: number): number | undefined {
  const n = /^phone(\d+)value$/.exec(norm(headers[valueColumn]))?.[1];
  if (n === undefined) return undefined;
  const i = headers.findIndex((h) => norm(h) === `phone${n}type` || norm(h) === `phone${n}label`);
  return i === -1 ? undefined : i;
}

/** The values of a cell that may hold several, Google style ("a ::: b"); blanks dropped. */
export function splitMultiValue(cell: string | null | undefined): string[] {
  return (cell ?? '')
    .split(MULTI_VALUE_SEPARATOR)
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** Whether a phone label (or header) names a mobile phone ("Mobile", "CELL", "Mobile Phone", "iPhone"). */
export function isMobileLabel(label: string | null | undefined): boolean {
  return /mobile|cell|iphone/i.test(label ?? '');
}

/** A candidate number of a row: its text and label (the label cell's value or the column header). */
export type RowPhone = { value: string; label: string };

/**
 * Chooses a row's number among its phones: the first valid mobile one, else the first valid one.
 * @param phones every phone of the row, in column order (multi-value cells already split)
 * @param parse the number parser (E.164 or null), e.g. `parsePhone`
 * @returns the chosen E.164 number and the other phones (kept in the notes), or `chosen: null`
 */
export function pickRowNumber(phones: RowPhone[], parse: (raw: string) => string | null): { chosen: string | null; chosenIndex: number; others: RowPhone[] } {
  const parsed = phones.map((p) => parse(p.value));
  let idx = phones.findIndex((p, i) => parsed[i] !== null && isMobileLabel(p.label));
  if (idx === -1) idx = parsed.findIndex((v) => v !== null);
  if (idx === -1) return { chosen: null, chosenIndex: -1, others: [] };
  const chosen = parsed[idx]!;
  const others = phones.filter((_, i) => i !== idx && parsed[i] !== chosen);
  return { chosen, chosenIndex: idx, others };
}
