/**
 * Favourite reports (spec 002 "Favorite report": `{id, value}`, value a JSON string): GET, POST
 * /api/favorite-reports; PUT, DELETE /api/favorite-reports/{id}. Private to the person, per company.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { parseFavoriteValue, type FavoriteReportList, type FavoriteReportSaved, type Infer } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import type { FavoriteReport, FavoriteReportState, FavoriteReportStateInput } from '../types';

export function favoriteReportsKey(companyId: number | null) {
  return companyKey(companyId, 'favorite-reports');
}

/** A favourite with its value parsed (`state` null when the stored text is not a favourite this app understands). */
export interface ParsedFavorite extends FavoriteReport {
  state: FavoriteReportState | null;
}

export function favoriteReportsQueryOptions(companyId: number | null) {
  return queryOptions({
    queryKey: favoriteReportsKey(companyId),
    queryFn: () => http.get<Infer<typeof FavoriteReportList>>('/api/favorite-reports', { params: { companyId } }),
    enabled: companyId !== null,
    staleTime: 30_000,
    select: (r): ParsedFavorite[] => r.data.map((f) => ({ ...f, state: parseFavoriteValue(f.value) })),
  });
}

/** The person's favourites in the selected company, oldest first. */
export function useFavoriteReports() {
  return useQuery(favoriteReportsQueryOptions(useCompanyId()));
}

type Saved = Infer<typeof FavoriteReportSaved>;

/** The JSON text saved as `value`. */
export function favoriteValue(state: FavoriteReportStateInput): string {
  return JSON.stringify({ filters: {}, grouping: null, columns: [], ...state });
}

/** Saves a new favourite (`id` absent) or replaces one's value (rename, new state). 422 answers stay silent for the form. */
export function useSaveFavoriteReport() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: (v: { id?: number; state: FavoriteReportStateInput }) =>
      v.id
        ? http.put<Saved>(`/api/favorite-reports/${v.id}`, { value: favoriteValue(v.state) }, { silent: true })
        : http.post<Saved>('/api/favorite-reports', { companyId, value: favoriteValue(v.state) }, { silent: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: favoriteReportsKey(companyId) }),
  });
}

export function useDeleteFavoriteReport() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: (id: number) => http.delete<{ message: string }>(`/api/favorite-reports/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: favoriteReportsKey(companyId) }),
  });
}
