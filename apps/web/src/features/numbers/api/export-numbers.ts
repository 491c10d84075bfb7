/**
 * POST /api/companies/{companyId}/numbers/export {sort, dir, search, type, label}: the filtered numbers
 * as CSV (`numbers-YYYY-MM-DD.csv`); the browser downloads it.
 */
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import type { NumberTableQuery } from '../types';

export type ExportQuery = Omit<NumberTableQuery, 'page' | 'perPage'>;

export function exportNumbers(companyId: number, query: ExportQuery): Promise<string> {
  return http.post<string>(`/api/companies/${companyId}/numbers/export`, { ...query, search: query.search || undefined, label: query.label || undefined });
}

/** Saves text as a file through a temporary object URL. */
export function downloadText(text: string, filename: string, type = 'text/csv'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function useExportNumbers() {
  return useMutation({
    mutationFn: ({ companyId, query }: { companyId: number; query: ExportQuery }) => exportNumbers(companyId, query),
    onSuccess: (csv) => downloadText(typeof csv === 'string' ? csv : String(csv ?? ''), `numbers-${new Date().toISOString().slice(0, 10)}.csv`),
  });
}
