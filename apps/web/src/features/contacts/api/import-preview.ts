/** POST /api/companies/{companyId}/contacts/import/preview (multipart file) → {headers, rows, mapping, error}. */
import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import type { ImportPreview } from '../types';

export async function importPreview(companyId: number, file: File): Promise<ImportPreview> {
  const form = new FormData();
  form.append('file', file);
  return (await request<ImportPreview>(`/api/companies/${companyId}/contacts/import/preview`, { method: 'POST', data: form, silent: true })).data;
}

export function useImportPreview() {
  const companyId = useCompanyId();
  return useMutation({ mutationFn: (file: File) => importPreview(companyId!, file) });
}
