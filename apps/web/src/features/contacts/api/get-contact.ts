/** GET /api/contacts/{id}: a contact in full (labels, groups, custom-field values). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import type { Contact } from '../types';
import { contactsKey } from './get-contacts';

export function getContact(id: number): Promise<Contact> {
  return http.get<Contact>(`/api/contacts/${id}`);
}

export function contactQueryOptions(companyId: number | null, id: number | null) {
  return queryOptions({
    queryKey: [...contactsKey(companyId), 'one', id],
    queryFn: () => getContact(id!),
    enabled: id !== null,
    staleTime: CACHE_MS.default,
  });
}

export function useContact(id: number | null) {
  return useQuery(contactQueryOptions(useCompanyId(), id));
}
