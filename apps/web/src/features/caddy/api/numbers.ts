/**
 * The catalogue and the person's numbers (docs/consumer-area.md "Numbers"): search by area code, random, add,
 * replace, activation (optimistic, rolled back on failure), removal, the removal dates, and the calls and texts of a
 * number with sending a text.
 */
import { CADDY_REMOVAL_DAYS } from '@switchboard/contracts';
import type {
  CaddyActivityList,
  CaddyCatalogList,
  CaddyInactivity,
  CaddyMessageAnswer,
  CaddyNumberAnswer,
  CaddyNumberList,
  Infer,
} from '@switchboard/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { caddy, useCaddySession } from './client';

export type CatalogNumber = Infer<typeof CaddyCatalogList>['data'][number];
export type CaddyNumber = Infer<typeof CaddyNumberList>['data'][number];
export type ActivityItem = Infer<typeof CaddyActivityList>['data'][number];
type NumberList = Infer<typeof CaddyNumberList>;

const DAY_MS = 24 * 3600 * 1000;

/** Query key root of the signed-in consumer account (every consumer query starts with it). */
export function caddyKey(accountId: number | null | undefined, ...rest: unknown[]): unknown[] {
  return ['caddy', accountId ?? null, ...rest];
}

/** The account id of the consumer session (null when signed out). */
function useAccountId(): number | null {
  return useCaddySession()?.accountId ?? null;
}

/**
 * The catalogue: numbers on offer in `areaCode` (`GET /caddy/catalog`), or in a random area code
 * (`GET /caddy/catalog/random`) when `areaCode` is `'random'`; `seed` makes "Show other numbers" a new query.
 * Off until a search was asked for (`search` null).
 */
export function useCatalog(search: { areaCode: string; seed: number } | null) {
  const accountId = useAccountId();
  return useQuery({
    queryKey: caddyKey(accountId, 'catalog', search?.areaCode, search?.seed),
    queryFn: ({ signal }) =>
      search!.areaCode === 'random'
        ? caddy.get<Infer<typeof CaddyCatalogList>>('/catalog/random', { limit: 10 }, signal)
        : caddy.get<Infer<typeof CaddyCatalogList>>('/catalog', { areaCode: search!.areaCode, limit: 10 }, signal),
    enabled: accountId !== null && search !== null,
    staleTime: 60_000,
    select: (r) => r.data,
  });
}

/** `GET /caddy/numbers`: the person's numbers with their state and removal dates. */
export function useCaddyNumbers() {
  const accountId = useAccountId();
  return useQuery({
    queryKey: caddyKey(accountId, 'numbers'),
    queryFn: ({ signal }) => caddy.get<NumberList>('/numbers', undefined, signal),
    enabled: accountId !== null,
    refetchOnMount: true,
    select: (r) => r.data,
  });
}

/** `GET /caddy/inactivity`: the numbers that will be removed, soonest first, with the days left. */
export function useInactivity() {
  const accountId = useAccountId();
  return useQuery({
    queryKey: caddyKey(accountId, 'numbers', 'inactivity'),
    queryFn: ({ signal }) => caddy.get<Infer<typeof CaddyInactivity>>('/inactivity', undefined, signal),
    enabled: accountId !== null,
    refetchOnMount: true,
    select: (r) => r.data,
  });
}

/** Refreshes the numbers, the removal dates and the usage (numbers held) after a change. */
function useRefreshNumbers() {
  const accountId = useAccountId();
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: caddyKey(accountId, 'numbers') });
    void qc.invalidateQueries({ queryKey: caddyKey(accountId, 'usage') });
  };
}

/** `POST /caddy/catalog/add {number}` (a cost: the screens confirm first). */
export function useAddNumber() {
  const refresh = useRefreshNumbers();
  return useMutation({
    mutationFn: (number: string) => caddy.post<Infer<typeof CaddyNumberAnswer>>('/catalog/add', { number }),
    onSuccess: refresh,
  });
}

/** `POST /caddy/catalog/replace {id, number}`: the old number is released now (the screens confirm first). */
export function useReplaceNumber() {
  const refresh = useRefreshNumbers();
  return useMutation({
    mutationFn: (input: { id: number; number: string }) => caddy.post<Infer<typeof CaddyNumberAnswer>>('/catalog/replace', input),
    onSuccess: refresh,
  });
}

/** `DELETE /caddy/numbers/{id}`: released now (the screens confirm first). */
export function useRemoveNumber() {
  const refresh = useRefreshNumbers();
  return useMutation({
    mutationFn: (id: number) => caddy.delete<Infer<typeof CaddyMessageAnswer>>(`/numbers/${id}`),
    onSuccess: refresh,
  });
}

/**
 * What activation does (the server's rule, docs/consumer-area.md "Numbers"): the chosen numbers active with no removal
 * date; every other number inactive, with a removal date 30 days from `now` unless it already had one.
 */
export function predictActivation(numbers: CaddyNumber[], ids: number[], now = new Date()): CaddyNumber[] {
  const removeAt = new Date(now.getTime() + CADDY_REMOVAL_DAYS * DAY_MS).toISOString();
  return numbers.map((n) =>
    ids.includes(n.id)
      ? { ...n, isActive: true, willBeRemovedAt: null }
      : { ...n, isActive: false, willBeRemovedAt: n.isActive || !n.willBeRemovedAt ? removeAt : n.willBeRemovedAt },
  );
}

/**
 * `PUT /caddy/numbers/activate {ids}`, optimistic: the list shows the outcome at once and goes back to what it was
 * when the server refuses (the error is the caller's to show).
 */
export function useActivateNumbers() {
  const accountId = useAccountId();
  const qc = useQueryClient();
  const key = caddyKey(accountId, 'numbers');
  return useMutation({
    mutationFn: (ids: number[]) => caddy.put<NumberList & { message: string }>('/numbers/activate', { ids }),
    onMutate: async (ids) => {
      await qc.cancelQueries({ queryKey: key });
      const before = qc.getQueryData<NumberList>(key);
      if (before) qc.setQueryData<NumberList>(key, { data: predictActivation(before.data, ids) });
      return { before };
    },
    onError: (_error, _ids, context) => {
      if (context?.before) qc.setQueryData(key, context.before);
    },
    onSuccess: (answer) => qc.setQueryData<NumberList>(key, { data: answer.data }),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: caddyKey(accountId, 'numbers', 'inactivity') });
      void qc.invalidateQueries({ queryKey: caddyKey(accountId, 'usage') });
    },
  });
}

/** `GET /caddy/numbers/{id}/activity`: the recent calls and texts of a number (newest first); refreshed every 15 s. */
export function useNumberActivity(id: number | null) {
  const accountId = useAccountId();
  return useQuery({
    queryKey: caddyKey(accountId, 'activity', id),
    queryFn: ({ signal }) => caddy.get<Infer<typeof CaddyActivityList>>(`/numbers/${id}/activity`, undefined, signal),
    enabled: accountId !== null && id !== null,
    refetchOnMount: true,
    refetchInterval: 15_000,
    select: (r) => r.data,
  });
}

/** `POST /caddy/numbers/{id}/messages {to, body}`: a text from an active number (422 when the plan's texts are used up). */
export function useSendText(id: number) {
  const accountId = useAccountId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { to: string; body: string }) => caddy.post<{ message: string; data: { id: number } }>(`/numbers/${id}/messages`, input),
    onSuccess: () => void qc.invalidateQueries({ queryKey: caddyKey(accountId, 'activity', id) }),
  });
}
