/**
 * Background number jobs (release, bulk update, bulk purchase, port-in) and their live progress
 * (docs/numbers.md "Background batches"): a tiny store of running and finished jobs fed by the
 * 202 answers and by the live events on `company.{companyId}` ('release progress' / 'release
 * completed', 'number update progress' / 'number update completed') and `bulk-purchase.{companyId}`
 * ('bulk purchase progress' / 'bulk purchase finished'). A finished job is removed
 * FINISHED_JOB_REMOVAL_MS (5 s) after its completion event, and the numbers are re-read.
 */
import { useQueryClient } from '@tanstack/react-query';
import type { LivePayload } from '@switchboard/contracts';
import { FINISHED_JOB_REMOVAL_MS } from '@switchboard/domain';
import { useSyncExternalStore } from 'react';
import { companyKey } from '../../../lib/query-client';
import { useRealtimeEvent } from '../../../lib/realtime';
import { useCompanyId } from '../../../lib/session';

export type JobKind = 'release' | 'update' | 'purchase';

export interface NumberJob {
  batchId: string;
  kind: JobKind;
  /** 0..100 (whole percent). */
  progress: number;
  total?: number;
  done?: number;
  failed?: number;
  finished: boolean;
}

const TITLES: Record<JobKind, string> = { release: 'Releasing numbers', update: 'Updating numbers', purchase: 'Buying numbers' };

/** Heading of a job's progress entry. */
export function jobTitle(job: NumberJob): string {
  if (!job.finished) return TITLES[job.kind];
  const verb = job.kind === 'release' ? 'released' : job.kind === 'update' ? 'updated' : 'bought';
  return `${job.done ?? 0} ${job.done === 1 ? 'number' : 'numbers'} ${verb}${job.failed ? `, ${job.failed} failed` : ''}`;
}

let jobs: NumberJob[] = [];
const listeners = new Set<() => void>();

function emit(next: NumberJob[]): void {
  jobs = next;
  listeners.forEach((l) => l());
}

function upsert(batchId: string, kind: JobKind, change: Partial<NumberJob>): void {
  const existing = jobs.find((j) => j.batchId === batchId);
  if (existing) emit(jobs.map((j) => (j.batchId === batchId ? { ...j, ...change, progress: Math.max(j.progress, change.progress ?? j.progress) } : j)));
  else emit([...jobs, { batchId, kind, progress: 0, finished: false, ...change }]);
}

/** Registers a job just started (from the 202 answer), so its bar shows before the first event. */
export function trackJob(batchId: string, kind: JobKind, total?: number): void {
  upsert(batchId, kind, { total });
}

function finish(batchId: string, kind: JobKind, done: number, failed: number): void {
  upsert(batchId, kind, { progress: 100, done, failed, finished: true });
  setTimeout(() => emit(jobs.filter((j) => j.batchId !== batchId)), FINISHED_JOB_REMOVAL_MS);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The jobs on screen. */
export function useNumberJobs(): NumberJob[] {
  return useSyncExternalStore(
    subscribe,
    () => jobs,
    () => jobs,
  );
}

/** Payloads of the batch events (packages/contracts LIVE_EVENTS). */
type Progress = LivePayload<'company', 'release progress'>;
type Completed = LivePayload<'company', 'release completed'>;

/**
 * Listens for the batch events of the selected company while mounted; on completion re-reads every
 * numbers list of the company (datatable, list, detail) and the number limit.
 */
export function useNumberJobsLive(): void {
  const companyId = useCompanyId();
  const queryClient = useQueryClient();
  const companyChannel = companyId === null ? null : (`company.${companyId}` as const);
  const purchaseChannel = companyId === null ? null : (`bulk-purchase.${companyId}` as const);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: companyKey(companyId) });
  };
  const onProgress = (kind: JobKind) => (p: Progress) => upsert(p.batchId, kind, { progress: p.progress });
  const onCompleted = (kind: JobKind) => (c: Completed) => {
    finish(c.batchId, kind, c.done, c.failed);
    refresh();
  };
  useRealtimeEvent(companyChannel, 'release progress', onProgress('release'));
  useRealtimeEvent(companyChannel, 'release completed', onCompleted('release'));
  useRealtimeEvent(companyChannel, 'number update progress', onProgress('update'));
  useRealtimeEvent(companyChannel, 'number update completed', onCompleted('update'));
  useRealtimeEvent(purchaseChannel, 'bulk purchase progress', onProgress('purchase'));
  useRealtimeEvent(purchaseChannel, 'bulk purchase finished', onCompleted('purchase'));
}
