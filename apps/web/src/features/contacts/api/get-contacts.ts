/**
 * GET /api/contacts?company_id&search&group_id&label_id&is_unsubscribed&is_invalid&page&per_page:
 * one page of the company's contacts, newest first, with `meta.pagination`.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import type { ContactFilters, ContactPage } from '../types';

export const CONTACTS_PER_PAGE = 25;

/** The filters as query values (booleans as 1, empty ones left out). */
export function filterParams(filters: ContactFilters): Record<string, unknown> {
  return {
    search: filters.search?.trim() || undefined,
    group_id: filters.group_id,
    label_id: filters.label_id,
    is_unsubscribed: filters.is_unsubscribed ? 1 : undefined,
    is_invalid: filters.is_invalid ? 1 : undefined,
  };
}

export function getContacts(companyId: number, filters: ContactFilters, page: number): Promise<ContactPage> {
  return http.get<ContactPage>('/api/contacts', { params: { company_id: companyId, ...filterParams(filters), page, per_page: CONTACTS_PER_PAGE } });
}

/** Prefix of everything contact-related of a company (lists and details). */
export function contactsKey(companyId: number | null) {
  return companyKey(companyId, 'contacts');
}

export function contactsQueryOptions(companyId: number | null, filters: ContactFilters, page: number) {
  return queryOptions({
    queryKey: [...contactsKey(companyId), 'list', { filters, page }],
    queryFn: () => getContacts(companyId!, filters, page),
    enabled: companyId !== null,
    staleTime: CACHE_MS.default,
    refetchOnMount: true,
    placeholderData: keepPreviousData,
  });
}

export function useContacts(filters: ContactFilters, page: number) {
  return useQuery(contactsQueryOptions(useCompanyId(), filters, page));
}
