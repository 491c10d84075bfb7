/**
 * Billing API hooks (docs/billing.md "Routes"): company billing and card (`/api/company/{id}/billing`, retry), the
 * gateway settings (`/api/chargify/security-token`), plans, subscription calls, usage (live on `billing usage
 * updated`), invoices. After a migrate the subscription refreshes after 1 s and invoices after 5 s (spec 002 §9).
 */
import type {
  CompanyBillingAnswer,
  Infer,
  InvoiceList,
  MigrationAnswer,
  MigrationPreview,
  PlanList,
  RetryAnswer,
  SecurityToken,
  SubscriptionAnswer,
  UsageAnswer,
  YearlyOfferList,
} from '@switchboard/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useRealtimeEvent } from '../../../lib/realtime';
import { useCompanyId } from '../../../lib/session';

export type CompanyBilling = Infer<typeof CompanyBillingAnswer>['data'];
export type Subscription = Infer<typeof SubscriptionAnswer>['data'];
export type Plan = Infer<typeof PlanList>['data'][number];
export type Usage = Infer<typeof UsageAnswer>['data'];
export type Invoice = Infer<typeof InvoiceList>['data'][number];
export type Preview = Infer<typeof MigrationPreview>;

/** Spec 000 §9: a billing update failure other than 422 stays 30 s. */
export const BILLING_ERROR_MS = 30_000;

const keys = {
  billing: (c: number | null) => ['billing', c] as const,
  subscription: (c: number | null) => ['billing', c, 'subscription'] as const,
  usage: (c: number | null) => ['billing', c, 'usage'] as const,
  invoices: (c: number | null) => ['billing', c, 'invoices'] as const,
  offers: (c: number | null) => ['billing', c, 'offers'] as const,
};

export function useCompanyBilling(enabled = true) {
  const c = useCompanyId();
  return useQuery({
    queryKey: keys.billing(c),
    queryFn: () => http.get<Infer<typeof CompanyBillingAnswer>>(`/api/company/${c}/billing`, { silent: true }),
    enabled: enabled && c !== null,
    select: (r) => r.data,
  });
}

export function useSecurityToken() {
  return useQuery({
    queryKey: ['billing', 'security-token'],
    queryFn: () => http.get<Infer<typeof SecurityToken>>('/api/chargify/security-token'),
    staleTime: Infinity,
  });
}

export function usePlans() {
  return useQuery({
    queryKey: ['billing', 'plans'],
    queryFn: () => http.get<Infer<typeof PlanList>>('/api/billing/plans'),
    select: (r) => r.data,
    staleTime: Infinity,
  });
}

export function useSubscription() {
  const c = useCompanyId();
  return useQuery({
    queryKey: keys.subscription(c),
    queryFn: () => http.get<Infer<typeof SubscriptionAnswer>>(`/api/company/${c}/subscription`),
    enabled: c !== null,
    select: (r) => r.data,
  });
}

export function useYearlyOffers() {
  const c = useCompanyId();
  return useQuery({
    queryKey: keys.offers(c),
    queryFn: () => http.get<Infer<typeof YearlyOfferList>>(`/api/company/${c}/subscription/yearly-offers`),
    enabled: c !== null,
    select: (r) => r.data,
  });
}

/** The current period's usage, refetched on the live `billing usage updated` event. */
export function useUsage() {
  const c = useCompanyId();
  const qc = useQueryClient();
  useRealtimeEvent(c === null ? null : `company.${c}`, 'billing usage updated', () => void qc.invalidateQueries({ queryKey: keys.usage(c) }));
  return useQuery({
    queryKey: keys.usage(c),
    queryFn: () => http.get<Infer<typeof UsageAnswer>>(`/api/company/${c}/usage`),
    enabled: c !== null,
    select: (r) => r.data,
  });
}

export function useInvoices() {
  const c = useCompanyId();
  return useQuery({
    queryKey: keys.invoices(c),
    queryFn: () => http.get<Infer<typeof InvoiceList>>(`/api/company/${c}/invoices`),
    enabled: c !== null,
    select: (r) => r.data,
  });
}

function billingFailure(error: unknown): void {
  // 422s are shown by the form; anything else stays 30 s (spec 000 §9).
  if (!(error instanceof HttpError) || error.status !== 422)
    notify.danger('Your billing information could not be updated. Please try again.', BILLING_ERROR_MS);
}

export type BillingFields = Partial<
  Record<'billing_name' | 'billing_address' | 'billing_address_2' | 'billing_city' | 'billing_state' | 'billing_zip' | 'billing_country', string>
>;

/** `POST /company/{id}/billing`: fields, a card token (`chargify_token`) or a finished setup (`setup_intent`); quiet on error. */
export function useSaveBilling() {
  const c = useCompanyId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BillingFields & { chargify_token?: string; setup_intent?: string }) =>
      http.post<Infer<typeof CompanyBillingAnswer>>(`/api/company/${c}/billing`, body, { silent: true }),
    onSuccess: (r) => {
      qc.setQueryData(keys.billing(c), { data: r.data });
      void qc.invalidateQueries({ queryKey: ['billing', c] });
    },
    onError: billingFailure,
  });
}

export function useRetryCharge() {
  const c = useCompanyId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => http.post<Infer<typeof RetryAnswer>>(`/api/company/${c}/billing/retry`, {}, { silent: true }),
    onSettled: () => void qc.invalidateQueries({ queryKey: ['billing', c] }),
    onError: billingFailure,
  });
}

export function usePreviewMigration() {
  const c = useCompanyId();
  return useMutation({
    mutationFn: (planId: string) => http.post<{ data: Preview }>(`/api/company/${c}/subscription/migrate/preview`, { plan_id: planId }).then((r) => r.data),
  });
}

export function useMigrate() {
  const c = useCompanyId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (planId: string) => http.post<Infer<typeof MigrationAnswer>>(`/api/company/${c}/subscription/migrate`, { plan_id: planId }),
    onSuccess: () => {
      setTimeout(() => void qc.invalidateQueries({ queryKey: keys.subscription(c) }), 1000);
      setTimeout(() => void qc.invalidateQueries({ queryKey: ['billing', c] }), 5000);
    },
  });
}

/** The subscription calls answering `{message, data: Subscription}`: cancel, clear-pending-cancel, revert-product-change, features, customer. */
export function useSubscriptionCall() {
  const c = useCompanyId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ path, body, method = 'post' }: { path: string; body?: unknown; method?: 'post' | 'put' }) =>
      http[method]<Infer<typeof SubscriptionAnswer>>(`/api/company/${c}/subscription/${path}`, body ?? {}),
    onSuccess: (r) => {
      qc.setQueryData(keys.subscription(c), { data: r.data });
      if (r.message) notify.success(r.message);
      void qc.invalidateQueries({ queryKey: ['billing', c] });
    },
  });
}

/** GET /api/companies/{companyId}/number-limit (spec 002 §7): the limit (the plan's unless raised) and the numbers in use. */
export function useNumberLimit(enabled: boolean) {
  const c = useCompanyId();
  return useQuery({
    queryKey: ['company', c, 'number-limit'],
    queryFn: () => http.get<{ limit: number; used: number }>(`/api/companies/${c}/number-limit`),
    enabled: enabled && c !== null,
  });
}

/** POST /api/companies/{companyId}/number-limit-increase `{ requested_limit, reason }` (spec 002 §7). */
export function useRequestLimitIncrease() {
  const c = useCompanyId();
  return useMutation({
    mutationFn: (input: { requested_limit: number; reason: string }) =>
      http.post<{ message: string }>(`/api/companies/${c}/number-limit-increase`, input, { silent: true }),
    onSuccess: (r) => notify.success(r.message),
  });
}
