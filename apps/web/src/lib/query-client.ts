/**
 * The TanStack Query client (foundation §7): unused data is kept 60 s (CACHE_MS.default), no refetch
 * on window focus, reconnect or mount. Each query sets its own staleTime from CACHE_MS
 * (conversations 600 s, counts 30 s, number search 300 s, company data unlimited, activity 5 s).
 * Retries are off here: the HTTP client already retries 429 answers (foundation §8).
 */
import { QueryClient } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      gcTime: CACHE_MS.default,
      refetchOnWindowFocus: false,
      refetchOnReconnect: false,
      refetchOnMount: false,
      retry: false,
    },
    mutations: { retry: false },
  },
});

/**
 * Root of every company-scoped query key: `['company', companyId, ...]`. Lets the company switcher
 * drop one company's lists at once without knowing the features' keys.
 */
export function companyKey(companyId: number | null, ...rest: unknown[]): unknown[] {
  return ['company', companyId, ...rest];
}
