/**
 * POST /api/companies/{companyId}/contacts/import (multipart: file, mapping JSON, duplicates, group_ids[]) →
 * 202 {batchId}. A file without name and number columns → 422 on `file` (shown by the wizard).
 */
import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import type { ImportDuplicateChoice, ImportMapping } from '../types';

export async function startImport(
  companyId: number,
  file: File,
  mapping: ImportMapping,
  groupIds: number[],
  duplicates: ImportDuplicateChoice = 'skip',
): Promise<{ batchId: string }> {
  const form = new FormData();
  form.append('file', file);
  form.append('mapping', JSON.stringify(mapping));
  form.append('duplicates', duplicates);
  for (const id of groupIds) form.append('group_ids[]', String(id));
  return (await request<{ batchId: string }>(`/api/companies/${companyId}/contacts/import`, { method: 'POST', data: form, silent: true })).data;
}

export function useStartImport() {
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: ({ file, mapping, groupIds, duplicates }: { file: File; mapping: ImportMapping; groupIds: number[]; duplicates: ImportDuplicateChoice }) =>
      startImport(companyId!, file, mapping, groupIds, duplicates),
  });
}
