/**
 * PUT /api/numbers/{id} {label, routes, schedule, menu_replays, menu_fallback}: saves the label and routing setup. Answers
 * {message: 'The number has been updated', data: Number}; 422 with field errors such as
 * `routes.0.forwards.1.number`.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Infer, UpdateNumberInput as UpdateNumberSchema } from '@switchboard/contracts';
import type { RouteEntry, Schedule } from '@switchboard/domain';
import { http } from '../../../lib/http';
import type { PhoneNumber } from '../types';
import { companyKey } from '../../../lib/query-client';
import { numbersQueryOptions } from './get-numbers';
import { numbersDatatableKey } from './get-numbers-datatable';

/**
 * The number's id and company with the contract's `UpdateNumberInput`; routes and schedule are the
 * routing editor's domain `RouteEntry`/`Schedule` (their wire form is the contract's).
 */
export type UpdateNumberInput = { id: number; company_id: number } & Omit<Infer<typeof UpdateNumberSchema>, 'routes' | 'schedule'> & {
    routes: RouteEntry[];
    schedule: Schedule;
  };

export function updateNumber({ id, label, routes, schedule, menu_replays, menu_fallback }: UpdateNumberInput): Promise<{ message: string; data: PhoneNumber }> {
  return http.put<{ message: string; data: PhoneNumber }>(`/api/numbers/${id}`, { label, routes, schedule, menu_replays, menu_fallback });
}

export function useUpdateNumber() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNumber,
    // The list, the datatable pages and the detail of the company all show routing summaries. The
    // numbers list and its datatable pages are refetched even while not shown (queries do not
    // refetch on mount), so going back to Numbers after a save shows the saved label and hours.
    onSuccess: (_data, input) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: companyKey(input.company_id) }),
        queryClient.invalidateQueries({ queryKey: numbersQueryOptions(input.company_id).queryKey, refetchType: 'all' }),
        queryClient.invalidateQueries({ queryKey: numbersDatatableKey(input.company_id), refetchType: 'all' }),
      ]),
  });
}
