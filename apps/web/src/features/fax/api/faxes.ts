/** Fax API hooks (docs/fax.md "API"): the company's faxes, sending one (multipart), and the company's fax numbers. */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Fax, FaxList } from '@switchboard/contracts';
import { http } from '../../../lib/http';

export type { Fax };

/** Filters of the list. */
export type FaxFilters = { page: number; direction?: 'inbound' | 'outbound' };

export function faxesQueryOptions(companyId: number, f: FaxFilters) {
  const q = new URLSearchParams({ page: String(f.page), per_page: '25' });
  if (f.direction) q.set('direction', f.direction);
  return queryOptions({
    queryKey: ['faxes', companyId, f],
    queryFn: () => http.get<FaxList>(`/api/companies/${companyId}/faxes?${q}`),
    placeholderData: keepPreviousData,
    // Statuses move on the provider's webhooks: refresh while something is in flight.
    refetchInterval: (query) => (query.state.data?.data.some((x) => ['queued', 'sending', 'receiving'].includes(x.status)) ? 2000 : 15000),
  });
}

export function useFaxes(companyId: number | null, f: FaxFilters) {
  return useQuery({ ...faxesQueryOptions(companyId ?? 0, f), enabled: companyId !== null });
}

/** A company number as the fax screen needs it; fax numbers are category 3 (spec 002). */
export type FaxNumber = { id: number; number: string; label: string; category: number; type_label: string };

export function useFaxNumbers(companyId: number | null) {
  return useQuery({
    queryKey: ['fax-numbers', companyId],
    queryFn: async () => (await http.get<{ data: FaxNumber[] }>(`/api/companies/${companyId}/numbers`)).data.filter((n) => n.category === 3),
    enabled: companyId !== null,
  });
}

export type SendFaxInput = { companyId: number; numberId: number; to: string; coverNote: string; file: File };

export function useSendFax() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SendFaxInput) => {
      const form = new FormData();
      form.append('number_id', String(input.numberId));
      form.append('to', input.to);
      if (input.coverNote.trim()) form.append('cover_note', input.coverNote);
      form.append('file', input.file);
      return http.post<Fax>(`/api/companies/${input.companyId}/faxes`, form);
    },
    onSuccess: (_d, input) => queryClient.invalidateQueries({ queryKey: ['faxes', input.companyId] }),
  });
}
