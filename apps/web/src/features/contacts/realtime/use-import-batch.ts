/**
 * Follows one contact import (spec 001 §7 live events): 'contact import progress' {batchId, progress}
 * and 'contact import completed' {batchId, inserted, merged, skipped, invalid, total, failed, error} on
 * `company.{companyId}`; GET .../contacts/progress/{batchId} is polled every 2 s as a fallback
 * (a missed event, a reconnect). On completion the contact and group lists are refreshed.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { companyKey } from '../../../lib/query-client';
import { useRealtimeEvent } from '../../../lib/realtime';
import { useCompanyId } from '../../../lib/session';
import { contactsKey } from '../api/get-contacts';
import { getImportProgress } from '../api/get-import-progress';

export interface ImportBatchState {
  progress: number;
  done: boolean;
  failed: boolean;
  inserted: number;
  merged: number;
  invalid: number;
  skipped: number;
  total: number;
  error: string | null;
  /** The per-row report (CSV), once the import finished. */
  reportUrl: string | null;
}

const POLL_MS = 2000;
const initial: ImportBatchState = {
  progress: 0,
  done: false,
  failed: false,
  inserted: 0,
  merged: 0,
  invalid: 0,
  skipped: 0,
  total: 0,
  error: null,
  reportUrl: null,
};
const reportUrlOf = (companyId: number | null, batchId: string | null) => `/api/companies/${companyId}/contacts/import/${batchId}/report`;

export function useImportBatch(batchId: string | null): ImportBatchState {
  const companyId = useCompanyId();
  const queryClient = useQueryClient();
  const [state, setState] = useState<ImportBatchState>(initial);
  const channel = companyId === null || batchId === null ? null : (`company.${companyId}` as const);

  useEffect(() => setState(initial), [batchId]);

  const finish = (next: ImportBatchState) => {
    setState((prev) => {
      if (!prev.done) {
        void queryClient.invalidateQueries({ queryKey: contactsKey(companyId) });
        void queryClient.invalidateQueries({ queryKey: companyKey(companyId, 'groups') });
      }
      return next;
    });
  };

  useRealtimeEvent(channel, 'contact import progress', (p) => {
    if (p?.batchId !== batchId) return;
    setState((prev) => (prev.done ? prev : { ...prev, progress: Math.max(prev.progress, p.progress) }));
  });
  useRealtimeEvent(channel, 'contact import completed', (p) => {
    if (p?.batchId !== batchId) return;
    finish({
      progress: 100,
      done: true,
      failed: p.failed,
      inserted: p.inserted,
      merged: p.merged,
      skipped: p.skipped,
      invalid: p.invalid,
      total: p.total,
      error: p.error,
      reportUrl: p.failed ? null : reportUrlOf(companyId, batchId),
    });
  });

  useEffect(() => {
    if (batchId === null || companyId === null || state.done) return;
    const timer = setInterval(() => {
      getImportProgress(companyId, batchId)
        .then((p) => {
          if (p.status === 'finished' || p.status === 'failed') {
            finish({
              progress: 100,
              done: true,
              failed: p.status === 'failed',
              inserted: p.inserted,
              merged: p.merged,
              skipped: p.skipped,
              invalid: p.invalid,
              total: p.total,
              error: p.error,
              reportUrl: p.report_url,
            });
          } else setState((prev) => (prev.done ? prev : { ...prev, progress: Math.max(prev.progress, p.progress) }));
        })
        .catch(() => undefined);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [batchId, companyId, state.done]);

  return state;
}
