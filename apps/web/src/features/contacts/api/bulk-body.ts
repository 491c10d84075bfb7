/** The request body of a bulk selection (spec 001 §5): `{contacts}` or `{all: true, filters}`. */
import type { BulkResult as BulkResultSchema, Infer } from '@switchboard/contracts';
import type { BulkSelection } from '../types';
import { filterParams } from './get-contacts';

export function bulkBody(selection: BulkSelection): Record<string, unknown> {
  if ('all' in selection) {
    const filters = Object.fromEntries(
      Object.entries(filterParams(selection.filters))
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, v === 1 ? true : v]),
    );
    return { all: true, filters };
  }
  return { contacts: selection.contacts };
}

/** The server's bulk answer. */
export type BulkResult = Infer<typeof BulkResultSchema>;
