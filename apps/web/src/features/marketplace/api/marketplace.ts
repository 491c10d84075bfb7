/**
 * Marketplace API hooks (docs/marketplace.md "Routes"; spec 002 §7 "Marketplace"): list (filters, paging), KPI,
 * detail, listings, create, update, purchase and the report (`marketplace_report.csv`), under
 * `/api/companies/{companyId}/marketplace/numbers`. A purchase refreshes the company's numbers and billing data.
 */
import type {
  Infer,
  Input,
  MarketplaceCreateInput,
  MarketplaceKpiAnswer,
  MarketplaceList,
  MarketplaceListingList,
  MarketplaceListQuery,
  MarketplaceMessageAnswer,
  MarketplacePurchaseAnswer,
  MarketplaceUpdateInput,
} from '@switchboard/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useRealtimeEvent } from '../../../lib/realtime';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';

export type MarketNumber = Infer<typeof MarketplaceList>['data'][number];
export type MarketListing = Infer<typeof MarketplaceListingList>['data'][number];
export type MarketKpi = Infer<typeof MarketplaceKpiAnswer>['data'];
export type MarketFilters = Partial<Input<typeof MarketplaceListQuery>>;
export type CreateListing = Input<typeof MarketplaceCreateInput>;
export type UpdateListing = Input<typeof MarketplaceUpdateInput>;

const base = (c: number | null) => `/api/companies/${c}/marketplace/numbers`;
const key = (c: number | null, ...rest: unknown[]) => companyKey(c, 'marketplace', ...rest);

/** The report's download address (the browser sends the session cookie; the server names the file). */
export function reportUrl(companyId: number | null): string {
  return `${base(companyId)}/report`;
}

/** Refetches the marketplace when `marketplace updated` arrives on the company's channel (a sale, a listing change). */
function useLiveMarketplace(c: number | null) {
  const qc = useQueryClient();
  useRealtimeEvent(c === null ? null : `company.${c}`, 'marketplace updated', () => void qc.invalidateQueries({ queryKey: key(c) }));
}

/** A page of marketplace numbers (live); empty filter values are not sent. */
export function useMarketplace(filters: MarketFilters) {
  const c = useCompanyId();
  useLiveMarketplace(c);
  const params = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined && v !== ''));
  return useQuery({
    queryKey: key(c, 'list', params),
    queryFn: () => http.get<Infer<typeof MarketplaceList>>(base(c), { params }),
    enabled: c !== null,
    placeholderData: keepPreviousData,
  });
}

export function useMarketplaceKpi() {
  const c = useCompanyId();
  return useQuery({
    queryKey: key(c, 'kpi'),
    queryFn: () => http.get<Infer<typeof MarketplaceKpiAnswer>>(`${base(c)}/kpi`),
    enabled: c !== null,
    select: (r) => r.data,
  });
}

export function useMarketplaceListings(id: number | null) {
  const c = useCompanyId();
  return useQuery({
    queryKey: key(c, 'listings', id),
    queryFn: () => http.get<Infer<typeof MarketplaceListingList>>(`${base(c)}/${id}/listings`),
    enabled: c !== null && id !== null,
    select: (r) => r.data,
  });
}

/** The company's active numbers (to choose one to list): id, E.164 and label. */
export function useOwnNumbers(enabled: boolean) {
  const c = useCompanyId();
  return useQuery({
    queryKey: key(c, 'own-numbers'),
    queryFn: () => http.get<{ data: Array<{ id: number; number: string; label: string }> }>(`/api/companies/${c}/numbers`),
    enabled: enabled && c !== null,
    select: (r) => r.data,
  });
}

function useRefresh() {
  const qc = useQueryClient();
  const c = useCompanyId();
  return () => qc.invalidateQueries({ queryKey: key(c) });
}

export function useCreateListing() {
  const c = useCompanyId();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: CreateListing) => http.post<Infer<typeof MarketplaceMessageAnswer>>(base(c), input, { silent: true }),
    onSuccess: (r) => {
      notify.success(r.message);
      void refresh();
    },
  });
}

export function useUpdateListing() {
  const c = useCompanyId();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: UpdateListing }) =>
      http.put<Infer<typeof MarketplaceMessageAnswer>>(`${base(c)}/${id}`, input, { silent: true }),
    onSuccess: (r) => {
      notify.success(r.message);
      void refresh();
    },
  });
}

export function usePurchase() {
  const c = useCompanyId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, expectedPriceCents }: { id: number; expectedPriceCents: number }) =>
      http.post<Infer<typeof MarketplacePurchaseAnswer>>(`${base(c)}/${id}/purchase`, { expected_price_cents: expectedPriceCents }, { silent: true }),
    onSuccess: (r) => {
      notify.success(`${r.message} Invoice ${r.invoice.number}.`);
      // The company's numbers, number limit and billing changed.
      void qc.invalidateQueries({ queryKey: ['company', c] });
      void qc.invalidateQueries({ queryKey: ['billing', c] });
    },
  });
}
