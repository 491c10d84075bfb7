/**
 * Call intelligence API (docs/call-intelligence.md): transcript search (GET /api/calls/search), its CSV export
 * (format=csv&async=1: the file arrives by `export ready`), questions about a call (POST /api/calls/{id}/converse)
 * and the AI attribute rules (/api/companies/{companyId}/ai-rules).
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AiRule, AiRuleInput, CallSearchBody, ConverseBody, ExportStartedBody } from '@switchboard/contracts';
import { http } from '../../../lib/http';

/** The search form's state (strings as typed; empty = no filter). */
export type SearchForm = { q: string; speaker: '' | 'agent' | 'client'; from: string; to: string; minDuration: string; page: number };

export function searchParams(companyId: number, f: SearchForm): URLSearchParams {
  const p = new URLSearchParams({ company_id: String(companyId), page: String(f.page), size: '20' });
  if (f.q.trim()) p.set('q', f.q.trim());
  if (f.speaker) p.set('speaker', f.speaker);
  if (f.from) p.set('dates[from]', f.from);
  if (f.to) p.set('dates[to]', f.to);
  if (f.minDuration) p.set('minDuration', f.minDuration);
  return p;
}

export function useCallSearch(companyId: number | null, f: SearchForm) {
  return useQuery({
    queryKey: ['call-search', companyId, f],
    queryFn: () => http.get<CallSearchBody>(`/api/calls/search?${searchParams(companyId!, f)}`),
    enabled: companyId !== null,
    placeholderData: keepPreviousData,
  });
}

export function useExportSearch(companyId: number | null) {
  return useMutation({
    mutationFn: (f: SearchForm) => {
      const p = searchParams(companyId!, f);
      p.set('format', 'csv');
      p.set('async', '1');
      return http.get<ExportStartedBody>(`/api/calls/search?${p}`);
    },
  });
}

export function useConverse(callId: number) {
  return useMutation({ mutationFn: (message: string) => http.post<ConverseBody>(`/api/calls/${callId}/converse`, { message }) });
}

export function useAiRules(companyId: number | null) {
  return useQuery({
    queryKey: ['ai-rules', companyId],
    queryFn: () => http.get<{ data: AiRule[] }>(`/api/companies/${companyId}/ai-rules`),
    enabled: companyId !== null,
  });
}

export function useSaveAiRule(companyId: number | null) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: AiRuleInput) => http.post<{ data: AiRule }>(`/api/companies/${companyId}/ai-rules`, input),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['ai-rules', companyId] }),
  });
}

export function useDeleteAiRule(companyId: number | null) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete<{ message: string }>(`/api/companies/${companyId}/ai-rules/${id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['ai-rules', companyId] }),
  });
}

/** The company's call custom fields (entity Call 6), for rules that fill an outcome or a department. */
export function useCallFields(companyId: number | null) {
  return useQuery({
    queryKey: ['eav-attributes', companyId, 6],
    queryFn: () => http.get<{ data: Array<{ id: number; name: string }> }>(`/api/eavAttributes?company_id=${companyId}&entity_type=6`),
    enabled: companyId !== null,
  });
}
