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
  UpcomingInvoiceAnswer,
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
export type Upcoming = NonNullable<Infer<typeof UpcomingInvoiceAnswer>['data']>;

/** Spec 000 §9: a billing update failure other than 422 stays 30 s. */
export const BILLING_ERROR_MS = 30_000;

const keys = {
  billing: (c: number | null) => ['billing', c] as const,
  subscription: (c: number | null) => ['billing', c, 'subscription'] as const,
  usage: (c: number | null) => ['billing', c, 'usage'] as const,
  invoices: (c: number | null) => ['billing', c, 'invoices'] as const,
  offers: (c: number | null) => ['billing', c, 'offers'] as const,
  upcoming: (c: number | null) => ['billing', c, 'upcoming'] as const,
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

/**
 * The invoice the period end will create if nothing changes (`GET …/invoices/upcoming`, also during the trial; null
 * once canceled), refetched with the usage on `billing usage updated`.
 */
export function useUpcomingInvoice() {
  const c = useCompanyId();
  const qc = useQueryClient();
  useRealtimeEvent(c === null ? null : `company.${c}`, 'billing usage updated', () => void qc.invalidateQueries({ queryKey: keys.upcoming(c) }));
  return useQuery({
    queryKey: keys.upcoming(c),
    queryFn: () => http.get<Infer<typeof UpcomingInvoiceAnswer>>(`/api/company/${c}/invoices/upcoming`),
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

/**
 * `POST …/subscription/migrate` with what the preview showed (`proration_date`, `expected_amount_cents`): the server
 * refuses (422, quiet here: the dialog shows it and previews again) when the amount is no longer the previewed one.
 */
export function useMigrate() {
  const c = useCompanyId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { planId: string; prorationDate: string; expectedAmountCents: number }) =>
      http.post<Infer<typeof MigrationAnswer>>(
        `/api/company/${c}/subscription/migrate`,
        { plan_id: input.planId, proration_date: input.prorationDate, expected_amount_cents: input.expectedAmountCents },
        { silent: true },
      ),
    onSuccess: (r) => {
      // The answer is the new subscription: shown at once, with the usage (the new plan's allowances), the offers and
      // the upcoming invoice read again now (not only after the spec's delayed refreshes, which still follow).
      qc.setQueryData(keys.subscription(c), { data: r.data });
      for (const key of [keys.usage(c), keys.offers(c), keys.upcoming(c)]) void qc.invalidateQueries({ queryKey: key });
      setTimeout(() => void qc.invalidateQueries({ queryKey: keys.subscription(c) }), 1000);
      setTimeout(() => void qc.invalidateQueries({ queryKey: ['billing', c] }), 5000);
    },
    onError: billingFailure,
  });
}

/**
 * The subscription calls answering `{message, data: Subscription}` (docs/billing.md "Routes"): cancel,
 * clear-pending-cancel, revert-product-change, features, customer, and the subscription update itself (`path` '' with
 * `method` 'put': a plan change at period end). `silent`: 422s are left to the caller's form (other failures stay
 * 30 s, spec 000 §9); the server's message ("Information updated successfully", "Feature enabled successfully"…) is
 * shown on success.
 */
export function useSubscriptionCall() {
  const c = useCompanyId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ path, body, method = 'post', silent = false }: { path: string; body?: unknown; method?: 'post' | 'put'; silent?: boolean }) =>
      http[method]<Infer<typeof SubscriptionAnswer>>(`/api/company/${c}/subscription${path ? `/${path}` : ''}`, body ?? {}, { silent }),
    onSuccess: (r) => {
      qc.setQueryData(keys.subscription(c), { data: r.data });
      if (r.message) notify.success(r.message);
      void qc.invalidateQueries({ queryKey: ['billing', c] });
    },
    onError: (error, variables) => {
      if (variables.silent) billingFailure(error);
    },
  });
}

/**
 * GET /api/companies/{companyId}/number-limit (spec 002 §7): the limit (the plan's unless raised) and the numbers in
 * use. The increase request is the Numbers page's dialog (`/numbers?dialog=number-limit`), open to the roles that may
 * buy numbers.
 */
export function useNumberLimit(enabled: boolean) {
  const c = useCompanyId();
  return useQuery({
    queryKey: ['company', c, 'number-limit'],
    queryFn: () => http.get<{ limit: number; used: number }>(`/api/companies/${c}/number-limit`),
    enabled: enabled && c !== null,
  });
}
