/**
 * Integrations with ad platforms, analytics, CRMs and Slack (spec 002 §7 "Integrations"; docs/integrations.md
 * "Routes"; shapes from contracts `ad-integrations.ts`): the provider cards, the OAuth connect flow (redirect, lookups,
 * activate / Slack configure, update, sync, deactivate, delete), GA4 and ADF forms, the delivery log with retry and
 * replay. Every call is under `/api/companies/{companyId}` and needs `integrations.manage`.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdDeliveryState, AdIntegration, AdIntegrationSettings, AdProvider, OAuthProvider, PageMeta } from '@switchboard/contracts';
import type { z } from 'zod';
import type { AdDelivery, AdLookupOption, AdProviderCard } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';

export type ProviderCard = z.infer<typeof AdProviderCard>;
export type LookupOption = z.infer<typeof AdLookupOption>;
export type Delivery = AdDelivery;

const key = (companyId: number | null, ...rest: unknown[]) => companyKey(companyId, 'ad-integrations', ...rest);
const base = (companyId: number | null) => `/api/companies/${companyId}`;

/** The cards (`GET …/integration-providers`): every provider, whether this server has it, and the company's integrations; re-read every 10 s while any is connected. */
export function useProviderCards() {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: key(companyId, 'cards'),
    queryFn: () => http.get<{ data: ProviderCard[]; mode: 'sandbox' | 'live' }>(`${base(companyId)}/integration-providers`),
    enabled: companyId !== null,
    // "Last delivery" and "needs reconnect" change as deliveries are sent: re-read every 10 s while one is connected.
    refetchInterval: (q) => (q.state.data?.data.some((c) => c.integrations.some((i) => i.state !== 'inactive')) ? 10_000 : false),
  });
}

/**
 * A lookup of a connected provider (`GET …/oauth-integrations/{provider}/{lookup}`), e.g. Google Ads accessible
 * customers or Slack channels. `params` null: not asked yet (a previous choice is missing).
 */
export function useLookup(provider: OAuthProvider, lookup: string, params: Record<string, string> | null) {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: key(companyId, 'lookup', provider, lookup, params),
    queryFn: () => http.get<{ data: LookupOption[] }>(`${base(companyId)}/oauth-integrations/${provider}/${lookup}`, { params: params ?? {}, silent: true }),
    enabled: companyId !== null && params !== null,
    select: (r) => r.data,
    staleTime: 60_000,
  });
}

function useInvalidate() {
  const companyId = useCompanyId();
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: key(companyId) });
}

/** Starts connecting: the provider's consent page URL (Slack through its GET redirect, the others POST). */
export function useStartConnect() {
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: (provider: OAuthProvider) =>
      provider === 'slackbot'
        ? http.get<{ url: string }>(`${base(companyId)}/oauth-integrations/slackbot/redirect`)
        : http.post<{ url: string }>(`${base(companyId)}/oauth-integrations/${provider}/redirect`, { returnTo: '/integrations' }),
    onSuccess: (r) => window.location.assign(r.url),
  });
}

export interface ActivateInput {
  config: Record<string, string | number | boolean | null>;
  settings?: AdIntegrationSettings;
  backfillDays?: number;
}

/** Activates a connected integration with the choices of the connect flow (the server runs the provider's check). */
export function useActivate() {
  const companyId = useCompanyId();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ provider, input }: { provider: OAuthProvider; input: ActivateInput }) =>
      http.put<{ data: AdIntegration; message?: string }>(
        provider === 'slackbot' ? `${base(companyId)}/oauth-integrations/slackbot/configure` : `${base(companyId)}/oauth-integrations/${provider}/activate`,
        input,
        { silent: true },
      ),
    onSuccess: (r) => {
      notify.success(r.message ?? 'The integration is active.');
      void invalidate();
    },
  });
}

export interface UpdateInput {
  name?: string;
  config?: Record<string, string | number | boolean | null>;
  settings?: AdIntegrationSettings;
  backfillDays?: number;
}

/** Saves an integration's name, settings or config (OAuth: `PUT …/{provider}/update`; GA4 and ADF: their PUT). */
export function useUpdateIntegration() {
  const companyId = useCompanyId();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ integration, input }: { integration: AdIntegration; input: UpdateInput & Record<string, unknown> }) => {
      const url =
        integration.provider === 'ga4'
          ? `${base(companyId)}/ga4integrations/${integration.id}`
          : integration.provider === 'adf'
            ? `${base(companyId)}/adf-integrations/${integration.id}`
            : `${base(companyId)}/oauth-integrations/${integration.provider}/update`;
      return http.put<{ data: AdIntegration }>(url, input, { silent: true });
    },
    onSuccess: () => {
      notify.success('Settings saved.');
      void invalidate();
    },
  });
}

/** Re-identifies the account and resumes (`PUT …/{provider}/sync`). */
export function useSync() {
  const companyId = useCompanyId();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (provider: OAuthProvider) => http.put<{ data: AdIntegration }>(`${base(companyId)}/oauth-integrations/${provider}/sync`),
    onSuccess: () => {
      notify.success('Account details refreshed.');
      void invalidate();
    },
  });
}

/** Disconnects: OAuth integrations are deactivated (tokens revoked, log kept); GA4 and ADF are deleted. */
export function useDisconnect() {
  const companyId = useCompanyId();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (integration: AdIntegration) =>
      integration.provider === 'ga4'
        ? http.delete<{ message: string }>(`${base(companyId)}/ga4integrations/${integration.id}`)
        : integration.provider === 'adf'
          ? http.delete<{ message: string }>(`${base(companyId)}/adf-integrations/${integration.id}`)
          : http.put<{ message: string }>(`${base(companyId)}/oauth-integrations/${integration.provider}/deactivate`),
    onSuccess: (r) => {
      notify.success(r.message ?? 'Disconnected.');
      void invalidate();
    },
  });
}

/** Removes an OAuth integration with its log (`DELETE …/oauth-integrations/{id}`). */
export function useRemoveOauth() {
  const companyId = useCompanyId();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: number) => http.delete<{ message: string }>(`${base(companyId)}/oauth-integrations/${id}`),
    onSuccess: (r) => {
      notify.success(r.message);
      void invalidate();
    },
  });
}

export interface Ga4Input {
  name?: string;
  measurementId: string;
  apiSecret: string;
  backfillDays?: number;
}
export interface AdfInput {
  name?: string;
  leadEmail: string;
  postUrl?: string | null;
  vendorName?: string;
}

/** Creates the GA4 integration (the server validates a test event with GA4's debug endpoint). */
export function useCreateGa4() {
  const companyId = useCompanyId();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: Ga4Input) => http.post<{ data: AdIntegration; message?: string }>(`${base(companyId)}/ga4integrations`, input, { silent: true }),
    onSuccess: (r) => {
      notify.success(r.message ?? 'Google Analytics 4 is connected.');
      void invalidate();
    },
  });
}

/** Creates an ADF lead export (the dealer CRM's lead address, optional HTTPS POST). */
export function useCreateAdf() {
  const companyId = useCompanyId();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: AdfInput) => http.post<{ data: AdIntegration }>(`${base(companyId)}/adf-integrations`, input, { silent: true }),
    onSuccess: () => {
      notify.success('The ADF lead export is set up.');
      void invalidate();
    },
  });
}

/** An integration's delivery log, newest first; re-read every 3 s while something is pending. */
export function useDeliveryLog(integrationId: number, page: number, state: AdDeliveryState | null) {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: key(companyId, 'deliveries', integrationId, page, state),
    queryFn: () =>
      http.get<{ data: Delivery[]; meta: PageMeta }>(`${base(companyId)}/integrations/${integrationId}/deliveries`, {
        params: { page, per_page: 20, state: state ?? undefined },
      }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.data.some((d) => d.state === 'pending' || d.state === 'waiting') ? 3000 : 10_000),
  });
}

/** Sends one delivery again (same delivery key, so the provider's deduplication still holds). */
export function useRetryDelivery() {
  const companyId = useCompanyId();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ integrationId, deliveryId }: { integrationId: number; deliveryId: number }) =>
      http.post<{ message: string }>(`${base(companyId)}/integrations/${integrationId}/deliveries/${deliveryId}/retry`),
    onSuccess: (r) => {
      notify.success(r.message);
      void invalidate();
    },
  });
}

/** Replays every delivery since `since` (≤ 30 days). */
export function useReplay() {
  const companyId = useCompanyId();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ integrationId, since }: { integrationId: number; since: string }) =>
      http.post<{ message: string; count: number }>(`${base(companyId)}/integrations/${integrationId}/replay`, { since }),
    onSuccess: (r) => {
      notify.success(`${r.message} (${r.count})`);
      void invalidate();
    },
  });
}

/** Numbers and pools of the company, for the "which numbers, pools" filters. */
export function useFilterChoices(enabled: boolean) {
  const companyId = useCompanyId();
  const numbers = useQuery({
    queryKey: key(companyId, 'filter-numbers'),
    queryFn: () => http.get<{ data: Array<{ id: number; number: string; name?: string | null }> }>(`${base(companyId)}/numbers`),
    enabled: enabled && companyId !== null,
    select: (r) => r.data,
  });
  const pools = useQuery({
    queryKey: key(companyId, 'filter-pools'),
    queryFn: () => http.get<{ data: Array<{ id: number; name: string }> }>(`${base(companyId)}/dniPools`, { silent: true }),
    enabled: enabled && companyId !== null,
    select: (r) => r.data,
  });
  return { numbers, pools };
}

export type { AdProvider, AdIntegration, OAuthProvider };
