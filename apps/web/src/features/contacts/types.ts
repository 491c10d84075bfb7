/** Shapes of the contacts endpoints (spec 001 §3 "Contact", "Contact label", "Batch progress"; §5 bulk selections). */

export interface Ref {
  id: number;
  name: string;
}

export interface Label {
  id: number;
  label: string;
}

export interface EavValue {
  attribute_id: number;
  value: unknown;
  name: string;
  type: string;
}

/** A contact list row. */
export interface ContactRow {
  id: number;
  name: string;
  number: string | null;
  email: string | null;
  source: string;
  is_unsubscribed: boolean;
  is_invalid: boolean;
  labels: Label[];
  groups: Ref[];
  eavAttributeValues: EavValue[];
}

/** A contact in full. */
export interface Contact extends ContactRow {
  company_id: number;
  first_name: string;
  last_name: string;
  company_name: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  notes: string | null;
  optin_type: string | null;
  optin_source: string | null;
  alternative_names: string[];
  secondary_emails: string[];
  carrier: string | null;
  gender: string | null;
  age_range: string | null;
  type: string | null;
  added_at: string;
  custom: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

/** Filters of the list, also used by every "all matching" bulk action. */
export interface ContactFilters {
  search?: string;
  group_id?: number;
  label_id?: number;
  is_unsubscribed?: boolean;
  is_invalid?: boolean;
}

export interface ContactPage {
  data: ContactRow[];
  meta: { pagination: { current_page: number; total_pages: number; total: number; per_page: number } };
}

/** A bulk selection: chosen ids, or every contact matching the filters across every page. */
export type BulkSelection = { contacts: number[] } | { all: true; filters: ContactFilters };

/** A custom field the contact form can fill (entity type Contact). */
export interface ContactAttribute {
  id: number;
  name: string;
  type: string;
  defaultValue: unknown;
  choices: Array<{ id: number; value: string }>;
}

/** Column mapping of an import: 0-based column index per field; `number` and `email` may take several columns. */
export type ImportMapping = Partial<Record<ImportField, number | number[]>>;
/** What a row with the number of an existing contact does (docs/contacts.md "Import"). */
export type ImportDuplicateChoice = 'skip' | 'fill' | 'overwrite';
export type ImportField = 'name' | 'first_name' | 'last_name' | 'number' | 'email' | 'company_name' | 'address1' | 'address2' | 'city' | 'state' | 'zip' | 'notes' | 'gender' | 'age_range' | 'type';

export interface ImportPreview {
  headers: string[];
  rows: string[][];
  mapping: Omit<ImportMapping, 'name'> & { name?: number | { first?: number; last?: number } };
  error: string | null;
}

export interface BatchProgress {
  progress: number;
  finishedAt: string | null;
  status: 'queued' | 'running' | 'finished' | 'failed' | string;
  inserted: number;
  merged: number;
  invalid: number;
  error: string | null;
  skipped: number;
  total: number;
  duplicates: string;
  report_url: string | null;
}
