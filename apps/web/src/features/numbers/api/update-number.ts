/**
 * PUT /api/numbers/{id} {label, routes, schedule}: saves the label and routing setup. Answers
 * {message: 'The number has been updated', data: Number}; 422 with field errors such as
 * `routes.0.forwards.1.number`.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RouteEntry, Schedule } from '@switchboard/domain';
import { http } from '../../../lib/http';
import type { PhoneNumber } from '../types';
import { companyKey } from '../../../lib/query-client';

export interface UpdateNumberInput {
  id: number;
  company_id: number;
  label: string;
  routes: RouteEntry[];
  schedule: Schedule;
}

export function updateNumber({ id, label, routes, schedule }: UpdateNumberInput): Promise<{ message: string; data: PhoneNumber }> {
  return http.put<{ message: string; data: PhoneNumber }>(`/api/numbers/${id}`, { label, routes, schedule });
}

export function useUpdateNumber() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNumber,
    // The list, the datatable pages and the detail of the company all show routing summaries.
    onSuccess: (_data, input) => queryClient.invalidateQueries({ queryKey: companyKey(input.company_id) }),
  });
}
