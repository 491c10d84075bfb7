/**
 * Number templates: GET/POST /api/companies/{companyId}/numberTemplates, PUT/DELETE .../{id},
 * POST .../{id}/apply {number_ids}. Spec 002 §5: a payload with `ai_eav_enabled: true` omits
 * `record` and `call_transcription_enabled` ({@link templatePayload}).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CACHE_MS } from '@switchboard/domain';
import type { ApplyTemplateBody, Infer, MessageBody } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';
import type { NumberTemplate, TemplateInput } from '../types';

/** The body to send: without record/transcription when AI attributes are on (spec 002 §5). */
export function templatePayload(input: TemplateInput): TemplateInput {
  if (!input.ai_eav_enabled) return input;
  const { record: _record, call_transcription_enabled: _transcription, ...rest } = input;
  return rest;
}

export function getTemplates(companyId: number): Promise<{ data: NumberTemplate[] }> {
  return http.get<{ data: NumberTemplate[] }>(`/api/companies/${companyId}/numberTemplates`);
}

export function templatesQueryOptions(companyId: number | null) {
  return queryOptions({
    queryKey: companyKey(companyId, 'number-templates'),
    queryFn: () => getTemplates(companyId!),
    enabled: companyId !== null,
    staleTime: CACHE_MS.company,
  });
}

export function useTemplates() {
  return useQuery(templatesQueryOptions(useCompanyId()));
}

export function saveTemplate(companyId: number, id: number | null, input: TemplateInput): Promise<{ message: string; data: NumberTemplate }> {
  const body = templatePayload(input);
  return id === null
    ? http.post<{ message: string; data: NumberTemplate }>(`/api/companies/${companyId}/numberTemplates`, body)
    : http.put<{ message: string; data: NumberTemplate }>(`/api/companies/${companyId}/numberTemplates/${id}`, body);
}

export function deleteTemplate(companyId: number, id: number): Promise<Infer<typeof MessageBody>> {
  return http.delete<Infer<typeof MessageBody>>(`/api/companies/${companyId}/numberTemplates/${id}`);
}

export function applyTemplate(companyId: number, id: number, numberIds: number[]): Promise<Infer<typeof ApplyTemplateBody>> {
  return http.post<Infer<typeof ApplyTemplateBody>>(`/api/companies/${companyId}/numberTemplates/${id}/apply`, { number_ids: numberIds });
}

export function useSaveTemplate() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: ({ id, input }: { id: number | null; input: TemplateInput }) => saveTemplate(companyId!, id, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templatesQueryOptions(companyId).queryKey }),
  });
}

export function useDeleteTemplate() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: (id: number) => deleteTemplate(companyId!, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templatesQueryOptions(companyId).queryKey }),
  });
}

export function useApplyTemplate() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: ({ id, numberIds }: { id: number; numberIds: number[] }) => applyTemplate(companyId!, id, numberIds),
    // The numbers' routing changed: every numbers list of the company is stale.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companyKey(companyId) }),
  });
}
