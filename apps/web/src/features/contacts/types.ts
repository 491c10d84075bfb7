/**
 * Shapes of the contacts endpoints (spec 001 §3 "Contact", "Contact label", "Batch progress"; §5
 * bulk selections), inferred from packages/contracts.
 */
import type {
  BatchProgress as BatchProgressSchema,
  BulkSelection as BulkSelectionSchema,
  Contact,
  ContactFilters as ContactFiltersSchema,
  ContactList,
  ContactListItem,
  EavAttribute,
  EavAttributeValueOut,
  GroupRef,
  ImportDuplicateChoice,
  ImportMapping,
  ImportPreview as ImportPreviewSchema,
  Infer,
  LabelRef,
} from '@switchboard/contracts';

export type { Contact, ImportDuplicateChoice, ImportMapping };
export type Ref = Infer<typeof GroupRef>;
export type Label = Infer<typeof LabelRef>;
export type EavValue = EavAttributeValueOut;

/** A contact list row. */
export type ContactRow = Infer<typeof ContactListItem>;

/** Filters of the list, also used by every "all matching" bulk action. */
export type ContactFilters = Infer<typeof ContactFiltersSchema>;

export type ContactPage = Infer<typeof ContactList>;

/** A bulk selection (the contract's `BulkSelection`): chosen ids, or every contact matching the filters across every page. */
export type BulkSelection = { contacts: NonNullable<Infer<typeof BulkSelectionSchema>['contacts']> } | { all: true; filters: ContactFilters };

/** A custom field the contact form can fill (entity type Contact). */
export type ContactAttribute = Pick<EavAttribute, 'id' | 'name' | 'type' | 'defaultValue' | 'choices'>;

/** A field an import column can map to (the mapping's keys). */
export type ImportField = keyof ImportMapping;

export type ImportPreview = Infer<typeof ImportPreviewSchema>;
export type BatchProgress = Infer<typeof BatchProgressSchema>;
