/**
 * Live progress of a pool's number purchase (the existing bulk purchase, docs/numbers.md "Background
 * batches"): 'bulk purchase progress' / 'bulk purchase finished' on `bulk-purchase.{companyId}` for one
 * batch id. On completion the pool, the pools list and the company's numbers are re-read.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { companyKey } from '../../../lib/query-client';
import { useRealtimeEvent } from '../../../lib/realtime';
import { useCompanyId } from '../../../lib/session';

export interface PurchaseProgress {
  /** 0..100 (whole percent). */
  progress: number;
  finished: boolean;
  done: number;
  failed: number;
}

/** Progress of `batchId` (null: none running); resets when the batch changes. */
export function usePurchaseProgress(batchId: string | null): PurchaseProgress | null {
  const companyId = useCompanyId();
  const queryClient = useQueryClient();
  const [state, setState] = useState<PurchaseProgress | null>(null);
  useEffect(() => {
    setState(batchId ? { progress: 0, finished: false, done: 0, failed: 0 } : null);
  }, [batchId]);
  const channel = companyId === null || batchId === null ? null : (`bulk-purchase.${companyId}` as const);
  useRealtimeEvent(channel, 'bulk purchase progress', (p) => {
    if (p.batchId !== batchId) return;
    setState((s) => (s && !s.finished ? { ...s, progress: Math.max(s.progress, p.progress) } : s));
  });
  useRealtimeEvent(channel, 'bulk purchase finished', (c) => {
    if (c.batchId !== batchId) return;
    setState({ progress: 100, finished: true, done: c.done, failed: c.failed });
    void queryClient.invalidateQueries({ queryKey: companyKey(companyId) });
  });
  return state;
}
